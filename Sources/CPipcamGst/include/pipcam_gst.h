// pipcam's own GStreamer logic in C: pad probes that run on streaming threads for every buffer, where
// a call into Swift per buffer would cost more than the work, and the state they share. Swift reaches it
// through the GStreamer target's wrappers (Pad+FrameGrid, PauseGate, ...); `make sanitize` tests it.
#ifndef PIPCAM_GST_H
#define PIPCAM_GST_H

#include <gst/gst.h>

// Running time: a buffer's presentation time on the pipeline clock's scale, and buffers moved in time.

/// A buffer's presentation time as running time (the pipeline clock's scale), using the pad's segment.
/// Encoders shift timestamps (x264enc by 1000 hours) and compensate in the segment, so raw PTS values
/// from different branches only compare after this conversion.
GstClockTime pc_pad_running_time(GstPad *pad, GstClockTime pts);

/// A sample's presentation time as running time, from the segment it carries (raw PTS otherwise).
GstClockTime pc_sample_running_time(GstSample *sample);

/// A copy sharing the buffer's memory (no pixels copied), with its times given as running times moved
/// back by `origin`, so a clip cut out of a running stream starts at zero.
GstBuffer *pc_buffer_retimed(GstSample *sample, GstClockTime origin);

/// What leaves `pad` is placed `earlier` nanoseconds before its time. The aggregators downstream are made
/// to wait as much longer (their `latency`): the pad says nothing of it in a latency query, which a
/// source made while recording answers too late for the start's, and which would count it twice.
void pc_pad_place_earlier(GstPad *pad, GstClockTime earlier);

// The frame grid: pictures put on the times of their rate, counted from running time zero.

/// Moves the probed buffer's presentation time onto the frame grid of `rate_n`/`rate_d` counted from
/// running time zero (the nearest picture time). Called from a buffer probe, after
/// `pc_pad_running_time`'s segment is known.
void pc_probe_info_align_to_rate(GstPad *pad, GstPadProbeInfo *info, gint rate_n, gint rate_d);

/// Puts each frame leaving `pad` on the grid of `rate_n`/`rate_d`, and drops one that lands on the grid
/// point of the frame before it (a camera's own frames jitter).
void pc_pad_put_frames_on_grid(GstPad *pad, gint rate_n, gint rate_d);

// Frames behind a backlog freed, not kept by their pool.

/// Frees a frame that enters the queue behind more than `kept` others once it is done with, instead of
/// giving it back to its pool, which keeps every buffer it ever made until it stops.
void pc_queue_free_backlogged_frames(GstPad *queue_sink, guint kept);

// A stream's title, kept in every tag event a track sends.

/// A tag event naming one stream (a muxer makes the title its track's name).
GstEvent *pc_event_new_stream_title(const gchar *title);

/// Keeps the stream's title in every tag event that leaves `pad` (a parser's later tags replace it).
void pc_pad_keep_title(GstPad *pad, const gchar *title);

// Key frames asked of encoders, and passed on between them.

/// Asks the encoders upstream of `pad` for a key frame as soon as they can, with their headers.
/// A sink pad pushes it to its peer; a source pad takes it in as one of its own.
gboolean pc_pad_request_key_frame(GstPad *pad);

/// Passes a key frame request that reaches `from` on to each of `targets`, at the time of the first
/// picture at or after the one asked (pictures on a grid of `rate_num`/`rate_den`).
void pc_pad_forward_key_unit_requests(GstPad *from, GstPad **targets, guint count, gint rate_num, gint rate_den);

// The sync camera's flashes and the sync microphone's beeps, timed by the system's monotonic clock.

/// Draws the sync camera's flashes into the pictures leaving `pad` (8-bit YUV, black as they arrive).
void pc_pad_draw_sync_flashes(GstPad *pad);

/// Sounds the sync microphone's beeps into the sound leaving `pad` (mono S16, silent as it arrives),
/// heard `heard_after` nanoseconds after its time.
void pc_pad_sound_sync_beeps(GstPad *pad, gint64 heard_after);

// Samples taken from pads.

/// The buffer as a sample with the pad's caps and segment, so its running time can be computed later.
GstSample *pc_sample_from_pad(GstPad *pad, GstBuffer *buffer);

/// The buffer's pixels copied (not shared) into a sample with the pad's caps, timed at zero: a picture
/// that stays valid after the device it came from is gone, to be shown again later (text overlays
/// discard a picture without a time).
GstSample *pc_sample_copied_from_pad(GstPad *pad, GstBuffer *buffer);

/// The same picture (its buffer shared) with raw video's interlace-mode written out where its caps leave
/// it unsaid, as progressive (what GStreamer assumes then). PipeWire's cameras leave it unsaid.
GstSample *pc_sample_interlace_stated(GstSample *sample);

// Pausing a recording: the gate on every encoder's input.

/// The stretches of running time a recording was paused for, shared by the probes on every encoder's
/// input: what falls inside one is dropped, what comes after is moved earlier by all of them before it,
/// so each encoder sees one unbroken stream, and pictures and sound are cut at the same times whatever
/// their latency. Spans are kept as start, end pairs (end NONE while paused), in order. Each starts and
/// ends on the picture's frame grid (`rate_n`/`rate_d` from running time zero, none when 0), so a pause
/// leaves out whole pictures and the file's pictures go on one frame apart.
typedef struct PcPauseGate PcPauseGate;

PcPauseGate *pc_pause_gate_new(gint rate_n, gint rate_d);

void pc_pause_gate_unref(PcPauseGate *gate);

/// Puts `pad` (an encoder's input) behind the gate.
void pc_pause_gate_attach(PcPauseGate *gate, GstPad *pad);

/// Opens a pause at `running` (nothing after it passes); false when one is open already.
gboolean pc_pause_gate_pause(PcPauseGate *gate, GstClockTime running);

/// Ends the open pause at `running`; returns how long it lasted, or NONE when none was open.
GstClockTime pc_pause_gate_resume(PcPauseGate *gate, GstClockTime running);

/// Where `running` falls in the recording's files: earlier by every pause before it, and at the
/// pause's start when it falls inside one.
GstClockTime pc_pause_gate_file_time(PcPauseGate *gate, GstClockTime running);

/// When the open pause began, or NONE; and in `total`, how long every pause has lasted up to `running`.
GstClockTime pc_pause_gate_open_since(PcPauseGate *gate, GstClockTime running, GstClockTime *total);

/// The sound a stream skips as it passes a pad: a queue that let its oldest go, a sound card that
/// overran. Gaps asked for (a switch turned off) are not lost; a new stream or segment (a source made
/// again) starts the count again, as its time away is said elsewhere.
typedef struct PcSoundGaps PcSoundGaps;

PcSoundGaps *pc_sound_gaps_new(void);

void pc_sound_gaps_unref(PcSoundGaps *gaps);

/// Counts what skips at `pad` (each pad its own stream; attach one count to one pad).
void pc_sound_gaps_attach(PcSoundGaps *gaps, GstPad *pad);

/// Where the sound counted at the attached pad comes from, upstream of anything that may let it go:
/// the device's first sound. The attached pad's first sound, if later, was lost, and so was the time
/// before a device's first sound when it began late. Attach before the sound flows.
void pc_sound_gaps_attach_source(PcSoundGaps *gaps, GstPad *pad);

/// Where the file ends, as a running time: sound lost past it is not counted, as the file keeps none.
void pc_sound_gaps_end(PcSoundGaps *gaps, GstClockTime end);

/// The sound lost so far.
GstClockTime pc_sound_gaps_lost(PcSoundGaps *gaps);

// Where a message's poster was when it posted.

/// Notes, as each error, warning or info is posted on `bus`, where its poster was then: the bins it sat
/// in and its path. The message is read later, on the bus's own thread, by when its poster may have
/// been taken out (a network camera's source, removed by its decodebin as it stops): without the note,
/// a failure of a part the recording had let go would read as coming from nowhere.
void pc_bus_note_origins(GstBus *bus);

/// The bins the message's poster sat in, nearest first, each held: when it posted, as the bus noted
/// then, or now for a kind of message the bus does not note. Unref when done.
GPtrArray *pc_message_poster_bins(GstMessage *message);

/// The poster's path, then or now as its bins are; NULL without a poster. Free with g_free.
gchar *pc_message_poster_path(GstMessage *message);

#endif
