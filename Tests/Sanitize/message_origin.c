// Where a message's poster was when it posted (Sources/CPipcamGst/message_origin.c): the bins it sat in
// and its path, noted by the bus at the post, and still there once the poster has been taken out.
#include "check.h"
#include "pipcam_gst.h"

/// An error posted inside a bin, read after its poster left the bin: the note says where it was.
static void check_a_poster_taken_out(void) {
    GstElement *pipeline = gst_pipeline_new("p");
    GstElement *camera = gst_bin_new("camera");
    GstElement *source = gst_element_factory_make("identity", "source");
    gst_bin_add(GST_BIN(camera), source);
    gst_bin_add(GST_BIN(pipeline), camera);
    GstBus *bus = gst_element_get_bus(pipeline);
    pc_bus_note_origins(bus);

    GError *error = g_error_new_literal(GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_READ, "the camera went away");
    CHECK(gst_element_post_message(source, gst_message_new_error(GST_OBJECT(source), error, "taken out")), "posted");
    g_error_free(error);
    gst_object_ref(source);
    gst_bin_remove(GST_BIN(camera), source);

    GstMessage *message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
    CHECK(message != NULL, "the error is in the bus");
    GPtrArray *bins = pc_message_poster_bins(message);
    CHECK(bins->len == 2, "two bins noted, not %u", bins->len);
    CHECK(bins->pdata[0] == camera && bins->pdata[1] == pipeline, "the camera's bin, then the pipeline");
    g_ptr_array_unref(bins);
    gchar *path = pc_message_poster_path(message);
    CHECK(g_strcmp0(path, "/GstPipeline:p/GstBin:camera/GstIdentity:source") == 0, "its path then: %s", path);
    g_free(path);
    CHECK(GST_OBJECT_PARENT(source) == NULL, "the poster is out of its bin");
    gst_message_unref(message);

    // A message of another kind is not noted: read after its poster left, it is from nowhere.
    gst_bin_add(GST_BIN(camera), source);
    gst_element_post_message(source, gst_message_new_element(GST_OBJECT(source), gst_structure_new_empty("pipcam-test")));
    gst_bin_remove(GST_BIN(camera), source);
    message = gst_bus_pop_filtered(bus, GST_MESSAGE_ELEMENT);
    CHECK(message != NULL, "the element message is in the bus");
    bins = pc_message_poster_bins(message);
    CHECK(bins->len == 0, "no bins noted, %u read now", bins->len);
    g_ptr_array_unref(bins);
    path = pc_message_poster_path(message);
    CHECK(g_strcmp0(path, "/GstIdentity:source") == 0, "its path now: %s", path);
    g_free(path);
    gst_message_unref(message);

    gst_object_unref(source);
    gst_object_unref(bus);
    gst_object_unref(pipeline);
}

int main(int argc, char **argv) {
    gst_init(&argc, &argv);
    check_a_poster_taken_out();
    gst_deinit();
    puts("message origin: ok");
    return 0;
}
