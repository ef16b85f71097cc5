/* Contiki-NG configuration of the rtosmeter port (PROJECT_CONF_PATH). */
#ifndef RM_CONTIKI_PROJECT_CONF_H
#define RM_CONTIKI_PROJECT_CONF_H

/* stdout carries the result stream: Contiki-NG's own log lines stay off. */
#define LOG_CONF_LEVEL_MAIN LOG_LEVEL_NONE
#define LOG_CONF_LEVEL_SYS LOG_LEVEL_NONE

/* heapmem's arena (lat.heap allocates 128 bytes at a time). */
#define HEAPMEM_CONF_ARENA_SIZE 4096

#endif /* RM_CONTIKI_PROJECT_CONF_H */
