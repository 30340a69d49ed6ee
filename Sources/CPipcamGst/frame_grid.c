// The frame grid: pictures put on the times of their rate, counted from running time zero.
#include "internal.h"

/// Moves the probed buffer, at `running` time, to grid point `frame` of `rate_n`/`rate_d` counted from
/// running time zero, making the buffer writable if it must change.
static void pc_probe_info_move_to_grid(GstPadProbeInfo *info, GstClockTime running, guint64 frame, gint rate_n, gint rate_d) {
    GstBuffer *buffer = pc_probe_info_buffer(info);
    GstClockTime pts = GST_BUFFER_PTS(buffer);
    GstClockTime aligned = gst_util_uint64_scale_round(frame, (guint64)rate_d * GST_SECOND, rate_n);
    if (aligned == running || (aligned < running && running - aligned > pts)) return;
    buffer = gst_buffer_make_writable(buffer);
    GST_BUFFER_PTS(buffer) = pts + aligned - running;
    if (GST_BUFFER_DTS_IS_VALID(buffer)) GST_BUFFER_DTS(buffer) = GST_BUFFER_PTS(buffer);
    GST_PAD_PROBE_INFO_DATA(info) = buffer;
}

void pc_probe_info_align_to_rate(GstPad *pad, GstPadProbeInfo *info, gint rate_n, gint rate_d) {
    GstBuffer *buffer = pc_probe_info_buffer(info);
    if (!buffer || rate_n <= 0 || rate_d <= 0 || !GST_BUFFER_PTS_IS_VALID(buffer)) return;
    GstClockTime running = pc_pad_running_time(pad, GST_BUFFER_PTS(buffer));
    if (!GST_CLOCK_TIME_IS_VALID(running)) return;
    guint64 frame = gst_util_uint64_scale_round(running, rate_n, (guint64)rate_d * GST_SECOND);
    pc_probe_info_move_to_grid(info, running, frame, rate_n, rate_d);
}

/// The frame grid of one track, and the grid point its last frame was put on.
typedef struct {
    gint rate_n, rate_d;
    gboolean started;
    guint64 last_frame;
} PcFrameGrid;

/// Puts each frame on the grid (as `pc_probe_info_align_to_rate`) and drops a frame that lands on the
/// grid point of the one before: a camera's own frames jitter, and two of them a little under a frame
/// apart around a half-way point would share one time.
static GstPadProbeReturn pc_probe_frame_grid(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    PcFrameGrid *grid = data;
    GstBuffer *buffer = pc_probe_info_buffer(info);
    if (!buffer || grid->rate_n <= 0 || grid->rate_d <= 0 || !GST_BUFFER_PTS_IS_VALID(buffer)) return GST_PAD_PROBE_OK;
    GstClockTime running = pc_pad_running_time(pad, GST_BUFFER_PTS(buffer));
    if (!GST_CLOCK_TIME_IS_VALID(running)) return GST_PAD_PROBE_OK;
    guint64 frame = gst_util_uint64_scale_round(running, grid->rate_n, (guint64)grid->rate_d * GST_SECOND);
    if (grid->started && frame <= grid->last_frame) return GST_PAD_PROBE_DROP;
    grid->started = TRUE;
    grid->last_frame = frame;
    pc_probe_info_move_to_grid(info, running, frame, grid->rate_n, grid->rate_d);
    return GST_PAD_PROBE_OK;
}

void pc_pad_put_frames_on_grid(GstPad *pad, gint rate_n, gint rate_d) {
    PcFrameGrid *grid = g_new0(PcFrameGrid, 1);
    grid->rate_n = rate_n;
    grid->rate_d = rate_d;
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, pc_probe_frame_grid, grid, g_free);
}
