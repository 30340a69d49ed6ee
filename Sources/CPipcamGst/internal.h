// What the C files share and the C tests reach: not part of the target's public header.
#ifndef PIPCAM_GST_INTERNAL_H
#define PIPCAM_GST_INTERNAL_H

#include "pipcam_gst.h"
#include <gst/video/video.h>
#include <gst/audio/audio.h>
#include <math.h>
#include <string.h>
#include <time.h>

/// The probed buffer, or NULL when the probe sees something else.
static inline GstBuffer *pc_probe_info_buffer(GstPadProbeInfo *info) {
    return (info->type & GST_PAD_PROBE_TYPE_BUFFER) ? GST_PAD_PROBE_INFO_BUFFER(info) : NULL;
}

/// How much of [start, start + length) the signal is on.
GstClockTime pc_sync_lit(GstClockTime start, GstClockTime length);

#endif
