// GIO's D-Bus client as Swift sees it: what pipcam needs to ask the desktop's portals (screen sharing
// on Wayland). The variant-type macros are restated as functions because Swift does not import them.
#ifndef PIPCAM_CGIO_SHIM_H
#define PIPCAM_CGIO_SHIM_H

#include <gio/gio.h>
#include <gio/gunixfdlist.h>

static inline const GVariantType *pc_variant_type_vardict(void) { return G_VARIANT_TYPE_VARDICT; }
static inline const GVariantType *pc_variant_type_tuple(void) { return G_VARIANT_TYPE_TUPLE; }

#endif
