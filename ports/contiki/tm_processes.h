/* Contiki-NG port: the Thread-Metric tests adapted to processes
 * (tm_processes.c), described for port.c's rm_port_describe(). */
#ifndef RM_CONTIKI_TM_PROCESSES_H
#define RM_CONTIKI_TM_PROCESSES_H

/* Emits stand_in.<case id> for every adapted test. */
void rm_tm_processes_describe(void);

#endif /* RM_CONTIKI_TM_PROCESSES_H */
