/* POSIX port: only the benchmark interrupt's trigger is inline here. The
 * "interrupt" is a highest-priority thread woken by a semaphore (port.c);
 * the measured calls are functions in port.c, since on the host a call
 * costs less than the host clock's noise. Their _raw halves return RM codes
 * already, so the default translators (port.h) serve. */
#ifndef RM_PORT_INLINE_H
#define RM_PORT_INLINE_H

void rm_posix_irq_trigger(void);
#define RM_PORT_IRQ_TRIGGER() rm_posix_irq_trigger()

#endif /* RM_PORT_INLINE_H */
