/* RTE_Components.h for rtosmeter's RTX5 build: the one definition the
 * CMSIS pack tooling would generate and that RTX and os_systick.c need, the
 * device header. No event recorder (RTE_Compiler_EventRecorder is not
 * defined, so RTX's EVR hooks compile to nothing in every profile). */
#ifndef RTE_COMPONENTS_H
#define RTE_COMPONENTS_H

#define CMSIS_device_header "rm_rtx_device.h"

#endif /* RTE_COMPONENTS_H */
