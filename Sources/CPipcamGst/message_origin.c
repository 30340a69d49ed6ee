// Where a message's poster was when it posted: noted by the bus as the message is posted.
#include "internal.h"

/// The bins the poster sat in, nearest first (each held), and its path, as they were at the post.
typedef struct {
    GPtrArray *bins;
    gchar *path;
} PcOrigin;

static G_DEFINE_QUARK(pipcam-origin, pc_origin)

static void pc_origin_free(gpointer data) {
    PcOrigin *origin = data;
    g_ptr_array_unref(origin->bins);
    g_free(origin->path);
    g_free(origin);
}

/// The bins `object` sits in now, nearest first, each held: unreffing the array releases them.
static GPtrArray *pc_object_bins(GstObject *object) {
    GPtrArray *bins = g_ptr_array_new_with_free_func(gst_object_unref);
    // Each parent is held while its own parent is asked for; the chain is bounded as a loop would not be.
    for (GstObject *parent = gst_object_get_parent(object); parent; parent = gst_object_get_parent(parent)) {
        g_ptr_array_add(bins, parent);
        if (bins->len >= 64) break;
    }
    return bins;
}

/// Runs on the posting thread, while the poster is still where it posted from.
static GstBusSyncReply pc_bus_note_origin(GstBus *bus, GstMessage *message, gpointer data) {
    (void)bus;
    (void)data;
    GstObject *source = GST_MESSAGE_SRC(message);
    if (!source || !(GST_MESSAGE_TYPE(message) & (GST_MESSAGE_ERROR | GST_MESSAGE_WARNING | GST_MESSAGE_INFO))) {
        return GST_BUS_PASS;
    }
    PcOrigin *origin = g_new0(PcOrigin, 1);
    origin->bins = pc_object_bins(source);
    origin->path = gst_object_get_path_string(source);
    gst_mini_object_set_qdata(GST_MINI_OBJECT(message), pc_origin_quark(), origin, pc_origin_free);
    return GST_BUS_PASS;
}

void pc_bus_note_origins(GstBus *bus) {
    gst_bus_set_sync_handler(bus, pc_bus_note_origin, NULL, NULL);
}

static PcOrigin *pc_message_origin(GstMessage *message) {
    return gst_mini_object_get_qdata(GST_MINI_OBJECT(message), pc_origin_quark());
}

GPtrArray *pc_message_poster_bins(GstMessage *message) {
    PcOrigin *origin = pc_message_origin(message);
    if (origin) return g_ptr_array_ref(origin->bins);
    return GST_MESSAGE_SRC(message) ? pc_object_bins(GST_MESSAGE_SRC(message)) : g_ptr_array_new();
}

gchar *pc_message_poster_path(GstMessage *message) {
    PcOrigin *origin = pc_message_origin(message);
    if (origin) return g_strdup(origin->path);
    return GST_MESSAGE_SRC(message) ? gst_object_get_path_string(GST_MESSAGE_SRC(message)) : NULL;
}
