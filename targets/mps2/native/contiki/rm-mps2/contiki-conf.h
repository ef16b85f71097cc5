/* Contiki-NG configuration of rtosmeter's MPS2 platform (Makefile.rm-mps2). */
#ifndef RM_MPS2_CONTIKI_CONF_H
#define RM_MPS2_CONTIKI_CONF_H

#include <inttypes.h>
#include <stdint.h>

#ifdef PROJECT_CONF_PATH
#include PROJECT_CONF_PATH
#endif

#define CLOCK_CONF_SECOND 1000
#define CLOCK_CONF_SIZE 4
/* rtimer: the target's 25 MHz timestamp counter (rm_ts). */
#define RTIMER_CONF_CLOCK_SIZE 4
#define UIP_CONF_BYTE_ORDER UIP_LITTLE_ENDIAN
#define CC_CONF_VA_ARGS 1
typedef uint32_t uip_stats_t;
#define PLATFORM_CONF_SUPPORTS_STACK_CHECK 0
#define GPIO_HAL_CONF_ARCH_SW_TOGGLE 1
#define GPIO_HAL_CONF_PORT_PIN_NUMBERING 0

/* A net-* load: the port's virtual radio (ports/contiki/net_radio.c). */
#include "rm_build_config.h"
#ifdef RM_LOAD_NET
#define NETSTACK_CONF_RADIO rm_radio_driver
#endif

#endif /* RM_MPS2_CONTIKI_CONF_H */
