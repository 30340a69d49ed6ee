import CGStreamer

/// How the C allocator treats the memory of video frames.
///
/// Elements such as `y4mdec` allocate a new frame-sized buffer per picture. Left to its defaults, glibc
/// gives such blocks back to the kernel when they are freed (they are above its mmap and trim
/// thresholds), so the next picture's block is faulted in again a page at a time, zeroed by the kernel:
/// about 90,000 page faults and a tenth of a second of CPU per 10 s of two 720p clips. Raising both
/// thresholds keeps freed frames in the heap for the next picture; the memory kept is at most the
/// recording's peak. Setting them also stops glibc from adjusting them by itself.
public enum FrameMemory {
    /// The most glibc accepts on 64-bit systems; an I420 4K frame is 12 MB.
    static let largestRecycledBlock: Int32 = 32 << 20
    /// Free memory the heap keeps before giving any back.
    static let keptFreeMemory: Int32 = 512 << 20

    /// A policy for the whole process: the program sets it once, at its start.
    public static func recycleFreedFrames() {
        pc_malloc_recycle_blocks(largestRecycledBlock, keptFreeMemory)
    }
}
