// Pausing a recording: the gate on every encoder's input.
#include "internal.h"

struct PcPauseGate {
    GMutex lock;
    GArray *spans;
    gint rate_n, rate_d;
};

PcPauseGate *pc_pause_gate_new(gint rate_n, gint rate_d) {
    PcPauseGate *gate = g_atomic_rc_box_new0(PcPauseGate);
    g_mutex_init(&gate->lock);
    gate->spans = g_array_new(FALSE, FALSE, sizeof(GstClockTime));
    gate->rate_n = rate_n;
    gate->rate_d = rate_d;
    return gate;
}

/// The first grid point at or after `running`: the time the grid probes give that picture.
static GstClockTime pc_pause_gate_on_grid(PcPauseGate *gate, GstClockTime running) {
    if (gate->rate_n <= 0 || gate->rate_d <= 0) return running;
    guint64 frame = gst_util_uint64_scale_ceil(running, gate->rate_n, (guint64)gate->rate_d * GST_SECOND);
    return gst_util_uint64_scale_round(frame, (guint64)gate->rate_d * GST_SECOND, gate->rate_n);
}

static void pc_pause_gate_clear(gpointer data) {
    PcPauseGate *gate = data;
    g_array_free(gate->spans, TRUE);
    g_mutex_clear(&gate->lock);
}

static void pc_pause_gate_release(gpointer data) { g_atomic_rc_box_release_full(data, pc_pause_gate_clear); }

void pc_pause_gate_unref(PcPauseGate *gate) { pc_pause_gate_release(gate); }

/// Whether what is at `running` is kept (outside every pause), and how much earlier it then goes.
static gboolean pc_pause_gate_shift_locked(PcPauseGate *gate, GstClockTime running, GstClockTime *shift) {
    *shift = 0;
    for (guint i = 0; i + 1 < gate->spans->len; i += 2) {
        GstClockTime start = g_array_index(gate->spans, GstClockTime, i), end = g_array_index(gate->spans, GstClockTime, i + 1);
        if (running < start) break;
        if (!GST_CLOCK_TIME_IS_VALID(end) || running < end) return FALSE;
        *shift += end - start;
    }
    return TRUE;
}

static GstPadProbeReturn pc_probe_pause_gate(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    PcPauseGate *gate = data;
    GstBuffer *buffer = pc_probe_info_buffer(info);
    if (!buffer || !GST_BUFFER_PTS_IS_VALID(buffer)) return GST_PAD_PROBE_OK;
    GstClockTime running = pc_pad_running_time(pad, GST_BUFFER_PTS(buffer));
    if (!GST_CLOCK_TIME_IS_VALID(running)) return GST_PAD_PROBE_OK;
    GstClockTime shift = 0;
    g_mutex_lock(&gate->lock);
    gboolean kept = pc_pause_gate_shift_locked(gate, running, &shift);
    g_mutex_unlock(&gate->lock);
    if (!kept) return GST_PAD_PROBE_DROP;
    if (shift == 0) return GST_PAD_PROBE_OK;
    buffer = gst_buffer_make_writable(buffer);
    GstClockTime pts = GST_BUFFER_PTS(buffer), dts = GST_BUFFER_DTS(buffer);
    GST_BUFFER_PTS(buffer) = pts > shift ? pts - shift : 0;
    if (GST_CLOCK_TIME_IS_VALID(dts)) GST_BUFFER_DTS(buffer) = dts > shift ? dts - shift : 0;
    GST_PAD_PROBE_INFO_DATA(info) = buffer;
    return GST_PAD_PROBE_OK;
}

void pc_pause_gate_attach(PcPauseGate *gate, GstPad *pad) {
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, pc_probe_pause_gate, g_atomic_rc_box_acquire(gate), pc_pause_gate_release);
}

gboolean pc_pause_gate_pause(PcPauseGate *gate, GstClockTime running) {
    g_mutex_lock(&gate->lock);
    guint count = gate->spans->len;
    gboolean open = count > 0 && !GST_CLOCK_TIME_IS_VALID(g_array_index(gate->spans, GstClockTime, count - 1));
    GstClockTime last = count > 0 ? g_array_index(gate->spans, GstClockTime, count - 1) : 0;
    if (!open) {
        GstClockTime start = pc_pause_gate_on_grid(gate, MAX(running, last)), none = GST_CLOCK_TIME_NONE;
        g_array_append_val(gate->spans, start);
        g_array_append_val(gate->spans, none);
    }
    g_mutex_unlock(&gate->lock);
    return !open;
}

GstClockTime pc_pause_gate_resume(PcPauseGate *gate, GstClockTime running) {
    g_mutex_lock(&gate->lock);
    guint count = gate->spans->len;
    GstClockTime length = GST_CLOCK_TIME_NONE;
    if (count >= 2 && !GST_CLOCK_TIME_IS_VALID(g_array_index(gate->spans, GstClockTime, count - 1))) {
        GstClockTime start = g_array_index(gate->spans, GstClockTime, count - 2);
        GstClockTime end = MAX(pc_pause_gate_on_grid(gate, running), start);
        g_array_index(gate->spans, GstClockTime, count - 1) = end;
        length = end - start;
    }
    g_mutex_unlock(&gate->lock);
    return length;
}

GstClockTime pc_pause_gate_file_time(PcPauseGate *gate, GstClockTime running) {
    g_mutex_lock(&gate->lock);
    GstClockTime shift = 0, at = running;
    for (guint i = 0; i + 1 < gate->spans->len; i += 2) {
        GstClockTime start = g_array_index(gate->spans, GstClockTime, i), end = g_array_index(gate->spans, GstClockTime, i + 1);
        if (running < start) break;
        if (!GST_CLOCK_TIME_IS_VALID(end) || running < end) {
            at = start;
            break;
        }
        shift += end - start;
    }
    g_mutex_unlock(&gate->lock);
    return at > shift ? at - shift : 0;
}

GstClockTime pc_pause_gate_open_since(PcPauseGate *gate, GstClockTime running, GstClockTime *total) {
    g_mutex_lock(&gate->lock);
    GstClockTime since = GST_CLOCK_TIME_NONE;
    *total = 0;
    for (guint i = 0; i + 1 < gate->spans->len; i += 2) {
        GstClockTime start = g_array_index(gate->spans, GstClockTime, i), end = g_array_index(gate->spans, GstClockTime, i + 1);
        if (!GST_CLOCK_TIME_IS_VALID(end)) {
            since = start;
            end = MAX(running, start);
        }
        *total += end - start;
    }
    g_mutex_unlock(&gate->lock);
    return since;
}
