// Frames behind a backlog freed, not kept by their pool.
#include "internal.h"

/// Frees, once it is done with, a frame that enters the probed queue behind more than `kept` others,
/// instead of giving it back to its pool (a pool keeps every buffer it ever made until it stops): the
/// flag is the one a pool checks to discard a buffer whose memory changed. Atomic, as the frame may be
/// shared by a tee's branches.
static GstPadProbeReturn pc_probe_free_backlogged_frame(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    GstBuffer *buffer = pc_probe_info_buffer(info);
    GstObject *queue = GST_OBJECT_PARENT(pad);
    if (!buffer || !buffer->pool || !queue) return GST_PAD_PROBE_OK;
    guint level = 0;
    g_object_get(queue, "current-level-buffers", &level, NULL);
    if (level > GPOINTER_TO_UINT(data)) g_atomic_int_or(&GST_MINI_OBJECT_FLAGS(buffer), GST_BUFFER_FLAG_TAG_MEMORY);
    return GST_PAD_PROBE_OK;
}

void pc_queue_free_backlogged_frames(GstPad *queue_sink, guint kept) {
    gst_pad_add_probe(queue_sink, GST_PAD_PROBE_TYPE_BUFFER, pc_probe_free_backlogged_frame, GUINT_TO_POINTER(kept), NULL);
}
