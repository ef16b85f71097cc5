/* NetX Duo's configuration for rtosmeter's node (NX_INCLUDE_USER_DEFINE_FILE,
 * ports/threadx/netxduo.cmake): NetX Duo's own defaults (its nx_user_sample.h
 * defines nothing), IPv6 and UDP included, as the study's "default
 * configuration of each OS". Nothing is tuned. */
#ifndef RM_NX_USER_H
#define RM_NX_USER_H
#endif
