// Sound lost on the way: where a stream of sound skips forward.
#include "internal.h"

/// A jump forward this small is the rounding of timestamps, not sound lost.
#define PC_SOUND_GAP_TOLERANCE GST_MSECOND

struct PcSoundGaps {
    GMutex lock;
    /// Where the next sound is due: the end of the last buffer or gap; NONE at a new stream or segment.
    GstClockTime expected;
    GstClockTime lost;
};

PcSoundGaps *pc_sound_gaps_new(void) {
    PcSoundGaps *gaps = g_atomic_rc_box_new0(PcSoundGaps);
    g_mutex_init(&gaps->lock);
    gaps->expected = GST_CLOCK_TIME_NONE;
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

/// Sound that starts later than the sound before it ends was lost between them; sound that overlaps
/// it moves nothing back.
static void pc_sound_gaps_cover(PcSoundGaps *gaps, GstClockTime start, GstClockTime duration, gboolean counts) {
    if (!GST_CLOCK_TIME_IS_VALID(start)) return;
    if (counts && GST_CLOCK_TIME_IS_VALID(gaps->expected) && start > gaps->expected + PC_SOUND_GAP_TOLERANCE) {
        gaps->lost += start - gaps->expected;
    }
    if (!GST_CLOCK_TIME_IS_VALID(duration)) {
        gaps->expected = GST_CLOCK_TIME_NONE;
    } else if (!GST_CLOCK_TIME_IS_VALID(gaps->expected) || start + duration > gaps->expected) {
        gaps->expected = start + duration;
    }
}

/// A gap event (a switch turned off) covers its time: silence asked for, not sound lost. A new
/// stream, segment or flush starts the count again (a source made again after its device came back).
static GstPadProbeReturn pc_probe_sound_gaps(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    PcSoundGaps *gaps = data;
    g_mutex_lock(&gaps->lock);
    GstBuffer *buffer = pc_probe_info_buffer(info);
    if (buffer) {
        pc_sound_gaps_cover(gaps, GST_BUFFER_PTS(buffer), GST_BUFFER_DURATION(buffer), TRUE);
    } else if (info->type & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
        GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
        switch (GST_EVENT_TYPE(event)) {
        case GST_EVENT_GAP: {
            GstClockTime start, duration;
            gst_event_parse_gap(event, &start, &duration);
            pc_sound_gaps_cover(gaps, start, duration, FALSE);
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

GstClockTime pc_sound_gaps_lost(PcSoundGaps *gaps) {
    g_mutex_lock(&gaps->lock);
    GstClockTime lost = gaps->lost;
    g_mutex_unlock(&gaps->lock);
    return lost;
}
