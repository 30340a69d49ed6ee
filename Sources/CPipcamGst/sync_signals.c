// The sync camera's flashes and the sync microphone's beeps, timed by the system's monotonic clock.
#include "internal.h"

/// The sync signals are on for the first `PC_SYNC_ON` of each whole second of the system's monotonic
/// clock, which pipcam's pipelines run on.
#define PC_SYNC_ON (100 * GST_MSECOND)
#define PC_SYNC_BEEP_HZ 1000.0

/// When `pts` on `pad` is, on the system's monotonic clock: its running time plus the base time of the
/// pad's element, on the element's clock, moved onto the monotonic clock (by how far the two read apart
/// now) when the element runs on another clock (a sound card's).
static GstClockTime pc_pad_monotonic_time(GstPad *pad, GstClockTime pts) {
    GstClockTime running = pc_pad_running_time(pad, pts);
    GstElement *element = gst_pad_get_parent_element(pad);
    if (!element) return GST_CLOCK_TIME_NONE;
    GstClockTime base = gst_element_get_base_time(element);
    GstClock *clock = gst_element_get_clock(element);
    gst_object_unref(element);
    if (!GST_CLOCK_TIME_IS_VALID(running) || !clock) {
        if (clock) gst_object_unref(clock);
        return GST_CLOCK_TIME_NONE;
    }
    GstClockTime time = running + base;
    GstClock *system = gst_system_clock_obtain();
    if (clock != system) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        time += GST_TIMESPEC_TO_TIME(now) - gst_clock_get_time(clock);
    }
    gst_object_unref(system);
    gst_object_unref(clock);
    return time;
}

GstClockTime pc_sync_lit(GstClockTime start, GstClockTime length) {
    GstClockTime lit = 0, end = start + length;
    for (GstClockTime second = start / GST_SECOND * GST_SECOND; second < end; second += GST_SECOND) {
        GstClockTime from = MAX(second, start), to = MIN(second + PC_SYNC_ON, end);
        if (to > from) lit += to - from;
    }
    return lit;
}

/// The sync camera's picture (8-bit YUV, black as it arrives): as a camera whose shutter is open for the
/// whole frame sees a lamp that is on for the first 100 ms of each second, the frame's luma is the share
/// of its time the lamp was on. A reader finds the second within the first lit frame from its luma.
static GstPadProbeReturn pc_probe_sync_flash(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    GstBuffer *buffer = pc_probe_info_buffer(info);
    if (!buffer || !GST_BUFFER_PTS_IS_VALID(buffer) || !GST_BUFFER_DURATION_IS_VALID(buffer)) return GST_PAD_PROBE_OK;
    GstClockTime start = pc_pad_monotonic_time(pad, GST_BUFFER_PTS(buffer));
    if (!GST_CLOCK_TIME_IS_VALID(start)) return GST_PAD_PROBE_OK;
    GstClockTime length = GST_BUFFER_DURATION(buffer);
    GstClockTime lit = length > 0 ? pc_sync_lit(start, length) : 0;
    if (lit == 0) return GST_PAD_PROBE_OK;
    GstCaps *caps = gst_pad_get_current_caps(pad);
    GstVideoInfo video;
    gboolean known = caps && gst_video_info_from_caps(&video, caps);
    if (caps) gst_caps_unref(caps);
    if (!known || !GST_VIDEO_FORMAT_INFO_IS_YUV(video.finfo)) return GST_PAD_PROBE_OK;
    buffer = gst_buffer_make_writable(buffer);
    GST_PAD_PROBE_INFO_DATA(info) = buffer;
    GstVideoFrame frame;
    if (!gst_video_frame_map(&frame, &video, buffer, GST_MAP_WRITE)) return GST_PAD_PROBE_OK;
    guint8 luma = (guint8)(16 + gst_util_uint64_scale_round(219, lit, length));
    for (gint row = 0; row < GST_VIDEO_FRAME_COMP_HEIGHT(&frame, 0); row++) {
        guint8 *line = (guint8 *)GST_VIDEO_FRAME_PLANE_DATA(&frame, 0) + row * GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0);
        memset(line, luma, GST_VIDEO_FRAME_COMP_WIDTH(&frame, 0));
    }
    gst_video_frame_unmap(&frame);
    return GST_PAD_PROBE_OK;
}

void pc_pad_draw_sync_flashes(GstPad *pad) {
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, pc_probe_sync_flash, NULL, NULL);
}

/// The sync microphone's sound (mono S16 at any rate, silent as it arrives): a 1 kHz beep, half of full
/// scale, on for the first 100 ms of each second, starting at the second itself from a rising zero.
/// `data` is how long after its time a sample is heard, in nanoseconds (signed): nothing for a microphone,
/// a pipeline's latency for a sound card that plays it, less how late a stand-in for a late one beeps.
static GstPadProbeReturn pc_probe_sync_beep(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    GstBuffer *buffer = pc_probe_info_buffer(info);
    if (!buffer || !GST_BUFFER_PTS_IS_VALID(buffer)) return GST_PAD_PROBE_OK;
    GstClockTime start = pc_pad_monotonic_time(pad, GST_BUFFER_PTS(buffer));
    if (GST_CLOCK_TIME_IS_VALID(start)) start += (GstClockTime)(gint64)(gintptr)data;
    GstCaps *caps = gst_pad_get_current_caps(pad);
    GstAudioInfo audio;
    gboolean known = caps && gst_audio_info_from_caps(&audio, caps);
    if (caps) gst_caps_unref(caps);
    if (!GST_CLOCK_TIME_IS_VALID(start) || !known || GST_AUDIO_INFO_FORMAT(&audio) != GST_AUDIO_FORMAT_S16 || GST_AUDIO_INFO_CHANNELS(&audio) != 1)
        return GST_PAD_PROBE_OK;
    // audiotestsrc marks its silence as a gap, which mixers would take as silence still and a sound card
    // would not play: the sound between beeps is silence played, not a gap.
    buffer = gst_buffer_make_writable(buffer);
    GST_PAD_PROBE_INFO_DATA(info) = buffer;
    GST_BUFFER_FLAG_UNSET(buffer, GST_BUFFER_FLAG_GAP);
    gsize count = gst_buffer_get_size(buffer) / 2;
    gint rate = GST_AUDIO_INFO_RATE(&audio);
    if (pc_sync_lit(start, gst_util_uint64_scale(count, GST_SECOND, rate)) == 0) return GST_PAD_PROBE_OK;
    GstMapInfo map;
    if (!gst_buffer_map(buffer, &map, GST_MAP_WRITE)) return GST_PAD_PROBE_OK;
    gint16 *samples = (gint16 *)map.data;
    for (gsize i = 0; i < count; i++) {
        GstClockTime at = start + gst_util_uint64_scale(i, GST_SECOND, rate);
        GstClockTime into = at % GST_SECOND;
        samples[i] = into < PC_SYNC_ON ? (gint16)(16384 * sin(2 * G_PI * PC_SYNC_BEEP_HZ * (double)into / GST_SECOND)) : 0;
    }
    gst_buffer_unmap(buffer, &map);
    return GST_PAD_PROBE_OK;
}

void pc_pad_sound_sync_beeps(GstPad *pad, gint64 heard_after) {
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, pc_probe_sync_beep, (gpointer)(gintptr)heard_after, NULL);
}
