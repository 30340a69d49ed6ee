// Sound lost on the way: where a stream of sound skips forward.
#include "internal.h"

/// A jump forward this small is the rounding of timestamps, not sound lost.
#define PC_SOUND_GAP_TOLERANCE GST_MSECOND
/// A device's first sound this soon after the recording starts is its usual start, not sound lost; of a
/// later start, only what comes after this much is counted, so the count never says more than was lost.
#define PC_SOUND_LATE_START_TOLERANCE (200 * GST_MSECOND)

struct PcSoundGaps {
    GMutex lock;
    /// Where the next sound is due: the end of the last buffer or gap; NONE at a new stream or segment.
    GstClockTime expected;
    GstClockTime lost;
    /// The first sound at the source's pad: its time, and its running time (how late the device began).
    GstClockTime source_first;
    GstClockTime source_first_running;
    /// Whether the counted pad has seen its first buffer or gap: the start is counted once.
    gboolean began;
    /// Where the file ends, as a running time (NONE until it is known): sound past it is not lost from it.
    GstClockTime end;
};

PcSoundGaps *pc_sound_gaps_new(void) {
    PcSoundGaps *gaps = g_atomic_rc_box_new0(PcSoundGaps);
    g_mutex_init(&gaps->lock);
    gaps->expected = GST_CLOCK_TIME_NONE;
    gaps->source_first = GST_CLOCK_TIME_NONE;
    gaps->source_first_running = GST_CLOCK_TIME_NONE;
    gaps->end = GST_CLOCK_TIME_NONE;
    return gaps;
}

static void pc_sound_gaps_clear(gpointer data) {
    g_mutex_clear(&((PcSoundGaps *)data)->lock);
}

void pc_sound_gaps_unref(PcSoundGaps *gaps) {
    g_atomic_rc_box_release_full(gaps, pc_sound_gaps_clear);
}

static void pc_sound_gaps_release(gpointer data) {
    pc_sound_gaps_unref(data);
}

/// The time lost from `from` to `to` (stream times), as far as `end` (the file's end, in the same
/// times; NONE for none): what comes after the end is not in the file, so not lost from it.
static void pc_sound_gaps_lose(PcSoundGaps *gaps, GstClockTime from, GstClockTime to, GstClockTime end) {
    if (GST_CLOCK_TIME_IS_VALID(end) && to > end) to = end;
    if (to > from) gaps->lost += to - from;
}

/// The first sound to pass, when it is sound and not a gap asked for: what never reached it is lost.
/// That is the device's late start (its first sound well after the recording began: a machine too busy
/// to read it), and the sound let go on the way before the first got through, which the gaps between
/// buffers cannot show.
static void pc_sound_gaps_begin(PcSoundGaps *gaps, GstClockTime start, gboolean counts, GstClockTime end) {
    gaps->began = TRUE;
    if (!counts || !GST_CLOCK_TIME_IS_VALID(gaps->source_first)) return;
    if (GST_CLOCK_TIME_IS_VALID(gaps->source_first_running) && gaps->source_first_running > PC_SOUND_LATE_START_TOLERANCE) {
        pc_sound_gaps_lose(gaps, PC_SOUND_LATE_START_TOLERANCE, gaps->source_first_running, gaps->end);
    }
    if (start > gaps->source_first + PC_SOUND_GAP_TOLERANCE) pc_sound_gaps_lose(gaps, gaps->source_first, start, end);
}

/// Sound that starts later than the sound before it ends was lost between them; sound that overlaps
/// it moves nothing back. `end` is the file's end in this stream's times.
static void pc_sound_gaps_cover(PcSoundGaps *gaps, GstClockTime start, GstClockTime duration, gboolean counts, GstClockTime end) {
    if (!GST_CLOCK_TIME_IS_VALID(start)) return;
    if (!gaps->began) pc_sound_gaps_begin(gaps, start, counts, end);
    if (counts && GST_CLOCK_TIME_IS_VALID(gaps->expected) && start > gaps->expected + PC_SOUND_GAP_TOLERANCE) {
        pc_sound_gaps_lose(gaps, gaps->expected, start, end);
    }
    if (!GST_CLOCK_TIME_IS_VALID(duration)) {
        gaps->expected = GST_CLOCK_TIME_NONE;
    } else if (!GST_CLOCK_TIME_IS_VALID(gaps->expected) || start + duration > gaps->expected) {
        gaps->expected = start + duration;
    }
}

/// The file's end as a time of the stream at `pad` around `time`: running times and stream times
/// differ by the same amount all through a segment. Without an end (no time limit), the pad's segment
/// is not looked up at all: this runs for every buffer.
static GstClockTime pc_sound_gaps_end_at(PcSoundGaps *gaps, GstPad *pad, GstClockTime time) {
    if (!GST_CLOCK_TIME_IS_VALID(gaps->end)) return GST_CLOCK_TIME_NONE;
    GstClockTime running = pc_pad_running_time(pad, time);
    if (!GST_CLOCK_TIME_IS_VALID(running)) return GST_CLOCK_TIME_NONE;
    gint64 end = (gint64)gaps->end - ((gint64)running - (gint64)time);
    return end > 0 ? (GstClockTime)end : 0;
}

/// A gap event (a switch turned off) covers its time: silence asked for, not sound lost. A new
/// stream, segment or flush starts the count again (a source made again after its device came back).
static GstPadProbeReturn pc_probe_sound_gaps(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    PcSoundGaps *gaps = data;
    g_mutex_lock(&gaps->lock);
    GstBuffer *buffer = pc_probe_info_buffer(info);
    if (buffer) {
        GstClockTime start = GST_BUFFER_PTS(buffer);
        pc_sound_gaps_cover(gaps, start, GST_BUFFER_DURATION(buffer), TRUE, pc_sound_gaps_end_at(gaps, pad, start));
    } else if (info->type & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
        GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
        switch (GST_EVENT_TYPE(event)) {
        case GST_EVENT_GAP: {
            GstClockTime start, duration;
            gst_event_parse_gap(event, &start, &duration);
            pc_sound_gaps_cover(gaps, start, duration, FALSE, pc_sound_gaps_end_at(gaps, pad, start));
            break;
        }
        case GST_EVENT_STREAM_START:
        case GST_EVENT_SEGMENT:
        case GST_EVENT_FLUSH_STOP:
            gaps->expected = GST_CLOCK_TIME_NONE;
            break;
        default:
            break;
        }
    }
    g_mutex_unlock(&gaps->lock);
    return GST_PAD_PROBE_OK;
}

void pc_sound_gaps_attach(PcSoundGaps *gaps, GstPad *pad) {
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, pc_probe_sound_gaps,
                      g_atomic_rc_box_acquire(gaps), pc_sound_gaps_release);
}

/// The source's first buffer ever: a device made again later (after its loss) starts no new count.
static GstPadProbeReturn pc_probe_sound_source(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    PcSoundGaps *gaps = data;
    GstBuffer *buffer = pc_probe_info_buffer(info);
    if (!buffer || !GST_BUFFER_PTS_IS_VALID(buffer)) return GST_PAD_PROBE_OK;
    GstClockTime running = pc_pad_running_time(pad, GST_BUFFER_PTS(buffer));
    g_mutex_lock(&gaps->lock);
    gboolean first = !GST_CLOCK_TIME_IS_VALID(gaps->source_first);
    if (first) {
        gaps->source_first = GST_BUFFER_PTS(buffer);
        gaps->source_first_running = running;
    }
    g_mutex_unlock(&gaps->lock);
    return first ? GST_PAD_PROBE_REMOVE : GST_PAD_PROBE_OK;
}

void pc_sound_gaps_attach_source(PcSoundGaps *gaps, GstPad *pad) {
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, pc_probe_sound_source, g_atomic_rc_box_acquire(gaps), pc_sound_gaps_release);
}

void pc_sound_gaps_end(PcSoundGaps *gaps, GstClockTime end) {
    g_mutex_lock(&gaps->lock);
    gaps->end = end;
    g_mutex_unlock(&gaps->lock);
}

GstClockTime pc_sound_gaps_lost(PcSoundGaps *gaps) {
    g_mutex_lock(&gaps->lock);
    GstClockTime lost = gaps->lost;
    g_mutex_unlock(&gaps->lock);
    return lost;
}
