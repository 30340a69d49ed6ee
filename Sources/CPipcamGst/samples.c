// Samples taken from pads.
#include "internal.h"

GstSample *pc_sample_from_pad(GstPad *pad, GstBuffer *buffer) {
    GstCaps *caps = gst_pad_get_current_caps(pad);
    GstEvent *event = gst_pad_get_sticky_event(pad, GST_EVENT_SEGMENT, 0);
    const GstSegment *segment = NULL;
    if (event) gst_event_parse_segment(event, &segment);
    GstSample *sample = gst_sample_new(buffer, caps, segment, NULL);
    if (caps) gst_caps_unref(caps);
    if (event) gst_event_unref(event);
    return sample;
}

GstSample *pc_sample_copied_from_pad(GstPad *pad, GstBuffer *buffer) {
    GstCaps *caps = gst_pad_get_current_caps(pad);
    if (!caps) return NULL;
    GstBuffer *copy = gst_buffer_copy_deep(buffer);
    GST_BUFFER_PTS(copy) = 0;
    GST_BUFFER_DTS(copy) = GST_BUFFER_DURATION(copy) = GST_CLOCK_TIME_NONE;
    GstSample *sample = gst_sample_new(copy, caps, NULL, NULL);
    gst_buffer_unref(copy);
    gst_caps_unref(caps);
    return sample;
}

GstSample *pc_sample_interlace_stated(GstSample *sample) {
    GstCaps *caps = gst_sample_get_caps(sample);
    if (!caps) return gst_sample_ref(sample);
    GstCaps *stated = gst_caps_copy(caps);
    for (guint i = 0; i < gst_caps_get_size(stated); i++) {
        GstStructure *structure = gst_caps_get_structure(stated, i);
        if (gst_structure_has_name(structure, "video/x-raw") && !gst_structure_has_field(structure, "interlace-mode"))
            gst_structure_set(structure, "interlace-mode", G_TYPE_STRING, "progressive", NULL);
    }
    GstSample *result = gst_sample_new(gst_sample_get_buffer(sample), stated, gst_sample_get_segment(sample), NULL);
    gst_caps_unref(stated);
    return result;
}
