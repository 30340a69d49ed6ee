// The V4L2 calls GStreamer does not expose: the camera_orientation control, which tells whether a
// camera faces the user (front), away (back) or is external; and reading and setting a camera's
// controls (brightness, gain, exposure) while it streams, through a second open of its node.
#ifndef PIPCAM_CV4L2_SHIM_H
#define PIPCAM_CV4L2_SHIM_H

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/videodev2.h>

#ifndef V4L2_CID_CAMERA_ORIENTATION
#define V4L2_CID_CAMERA_ORIENTATION (V4L2_CID_CAMERA_CLASS_BASE + 34)
#endif

/// 1 with the node's bus info in `bus_info` (the port or instance the device sits on) when it captures
/// video, 0 when it is a device of another kind, -1 when it cannot be opened.
static inline int pc_v4l2_capture_bus_info(const char *path, char *bus_info, size_t size) {
    int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -1;
    struct v4l2_capability capability = { 0 };
    int result = ioctl(fd, VIDIOC_QUERYCAP, &capability);
    close(fd);
    if (result != 0 || size == 0) return 0;
    unsigned int caps = (capability.capabilities & V4L2_CAP_DEVICE_CAPS) ? capability.device_caps : capability.capabilities;
    if (!(caps & (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_VIDEO_CAPTURE_MPLANE))) return 0;
    size_t length = strnlen((const char *)capability.bus_info, sizeof capability.bus_info);
    if (length >= size) length = size - 1;
    memcpy(bus_info, capability.bus_info, length);
    bus_info[length] = 0;
    return 1;
}

/// 1 when the node is a V4L2 device that captures video, 0 when it answers as something else, -1 when it
/// cannot be opened (errno says why).
static inline int pc_v4l2_captures_video(const char *path) {
    char bus_info[32];
    return pc_v4l2_capture_bus_info(path, bus_info, sizeof bus_info);
}

/// 1 when another open of the node owns its capture buffers (it streams from the camera), 0 when the
/// camera is free, -1 when the node cannot be opened. Asking for no buffers changes nothing on a free camera.
static inline int pc_v4l2_capture_is_busy(const char *path) {
    int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -1;
    struct v4l2_requestbuffers request = { .count = 0, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP };
    int busy = ioctl(fd, VIDIOC_REQBUFS, &request) != 0 && errno == EBUSY;
    close(fd);
    return busy;
}

/// The mode the camera captures in now (another program may be streaming): its pixel format as a
/// fourcc, size and frame rate as a fraction of a second per frame. 0 on success, -1 otherwise.
static inline int pc_v4l2_current_mode(const char *path, unsigned int *fourcc, unsigned int *width, unsigned int *height,
                                       unsigned int *interval_numerator, unsigned int *interval_denominator) {
    int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -1;
    struct v4l2_format format = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
    struct v4l2_streamparm parm = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
    int result = ioctl(fd, VIDIOC_G_FMT, &format) == 0 && ioctl(fd, VIDIOC_G_PARM, &parm) == 0 ? 0 : -1;
    close(fd);
    if (result != 0) return -1;
    *fourcc = format.fmt.pix.pixelformat; *width = format.fmt.pix.width; *height = format.fmt.pix.height;
    *interval_numerator = parm.parm.capture.timeperframe.numerator;
    *interval_denominator = parm.parm.capture.timeperframe.denominator;
    return 0;
}

// MARK: every control, by the extended API

/// The node opened for controls (a second open beside a streaming one is allowed), or -1.
static inline int pc_v4l2_open_controls(const char *path) {
    return open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
}

/// The next control after `query->id` (start with 0): 0, or -1 at the end.
static inline int pc_v4l2_next_control(int fd, struct v4l2_query_ext_ctrl *query) {
    query->id |= V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND;
    return ioctl(fd, VIDIOC_QUERY_EXT_CTRL, query) == 0 ? 0 : -1;
}

/// One control's description: 0, or -1 when the camera has no such control.
static inline int pc_v4l2_describe_control(int fd, struct v4l2_query_ext_ctrl *query) {
    return ioctl(fd, VIDIOC_QUERY_EXT_CTRL, query) == 0 ? 0 : -1;
}

/// A menu entry's name (menus) or value (integer menus): 0, or -1 for an index the menu skips.
static inline int pc_v4l2_menu_entry(int fd, unsigned int id, unsigned int index, char name[32], long long *value) {
    struct v4l2_querymenu entry = { .id = id, .index = index };
    if (ioctl(fd, VIDIOC_QUERYMENU, &entry) != 0) return -1;
    for (int i = 0; i < 32; i++) name[i] = (char)entry.name[i];
    *value = entry.value;
    return 0;
}

/// A control's value (64-bit controls too): 0, or -1 (errno says why).
static inline int pc_v4l2_read_control(int fd, unsigned int id, long long *value) {
    struct v4l2_ext_control control = { .id = id };
    struct v4l2_ext_controls controls = { .which = V4L2_CTRL_WHICH_CUR_VAL, .count = 1, .controls = &control };
    if (ioctl(fd, VIDIOC_G_EXT_CTRLS, &controls) != 0) return -1;
    struct v4l2_query_ext_ctrl query = { .id = id };
    int wide = ioctl(fd, VIDIOC_QUERY_EXT_CTRL, &query) == 0 && query.type == V4L2_CTRL_TYPE_INTEGER64;
    *value = wide ? control.value64 : control.value;
    return 0;
}

/// Sets a control: 0, or -1 (errno says why: ERANGE out of range, EACCES read-only, EBUSY inactive or locked).
static inline int pc_v4l2_write_control(int fd, unsigned int id, long long value) {
    struct v4l2_query_ext_ctrl query = { .id = id };
    if (ioctl(fd, VIDIOC_QUERY_EXT_CTRL, &query) != 0) return -1;
    struct v4l2_ext_control control = { .id = id };
    if (query.type == V4L2_CTRL_TYPE_INTEGER64) control.value64 = value; else control.value = (int)value;
    struct v4l2_ext_controls controls = { .which = V4L2_CTRL_WHICH_CUR_VAL, .count = 1, .controls = &control };
    return ioctl(fd, VIDIOC_S_EXT_CTRLS, &controls) == 0 ? 0 : -1;
}

/// 0 front, 1 back, 2 external; -1 when the node cannot be opened or lacks the control.
static inline int pc_v4l2_camera_orientation(const char *path) {
    int fd = pc_v4l2_open_controls(path);
    if (fd < 0) return -1;
    long long value = -1;
    int result = pc_v4l2_read_control(fd, V4L2_CID_CAMERA_ORIENTATION, &value);
    close(fd);
    return result == 0 ? (int)value : -1;
}

#endif
