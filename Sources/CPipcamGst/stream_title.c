// A stream's title, kept in every tag event a track sends.
#include "internal.h"

GstEvent *pc_event_new_stream_title(const gchar *title) {
    GstTagList *tags = gst_tag_list_new(GST_TAG_TITLE, title, NULL);
    gst_tag_list_set_scope(tags, GST_TAG_SCOPE_STREAM);
    return gst_event_new_tag(tags);
}

/// Keeps a stream's title in every tag event that leaves `pad`: a parser's later tags (bitrates) replace
/// the sticky tag event, and a muxer started anew for each part of a recording reads only the last one.
static GstPadProbeReturn pc_probe_keep_title(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (GST_EVENT_TYPE(event) != GST_EVENT_TAG) return GST_PAD_PROBE_OK;
    GstTagList *tags = NULL;
    gst_event_parse_tag(event, &tags);
    if (gst_tag_list_get_scope(tags) != GST_TAG_SCOPE_STREAM) return GST_PAD_PROBE_OK;
    gchar *title = NULL;
    if (gst_tag_list_get_string(tags, GST_TAG_TITLE, &title)) {
        g_free(title);
        return GST_PAD_PROBE_OK;
    }
    GstTagList *titled = gst_tag_list_copy(tags);
    gst_tag_list_add(titled, GST_TAG_MERGE_REPLACE, GST_TAG_TITLE, (const gchar *)data, NULL);
    GST_PAD_PROBE_INFO_DATA(info) = gst_event_new_tag(titled);
    gst_event_unref(event);
    return GST_PAD_PROBE_OK;
}

void pc_pad_keep_title(GstPad *pad, const gchar *title) {
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, pc_probe_keep_title, g_strdup(title), g_free);
}
