/* What the shared lwIP radio (net_radio.c) needs of the port beside lwIP's
 * sys_arch: the end of the radio's interrupt, after it posted to the tcpip
 * thread's mailbox. */
#ifndef RM_LWIP_PORT_H
#define RM_LWIP_PORT_H

/* `rc` is sys_mbox_trypost_fromisr's: a kernel whose from-ISR calls leave
 * the context switch to the caller (FreeRTOS: ERR_NEED_SCHED) switches here;
 * one that pends it itself (RTX5) does nothing. */
void rm_lwip_isr_exit(int rc);

#endif /* RM_LWIP_PORT_H */
