import CGStreamer
import Foundation
import Locking

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

    /// How often the heap's free memory goes back to the kernel, in seconds.
    static let givingBackInterval: TimeInterval = 60
    /// How long the heaps' tops give back what is freed, each time, in seconds: frames are freed many
    /// times a second.
    static let trimmingTime: TimeInterval = 1

    /// A policy for the whole process: the program sets it once, at its start.
    ///
    /// The heap keeps what is freed, and what a moment of load made and freed (a backlog of frames) would
    /// stay resident to the end of a long recording. Once a minute the free memory goes back to the kernel:
    /// for a second the tops of the heaps (where a backlog's frames end up once freed; `malloc_trim` does
    /// not shrink those of threads' arenas) give back what is freed, then the free blocks inside them go.
    /// The frames in use are untouched; those freed meanwhile are faulted in again.
    public static func recycleFreedFrames() {
        pc_malloc_recycle_blocks(largestRecycledBlock, keptFreeMemory)
        givingBack.withValue { started in
            guard !started else { return }
            started = true
            NamedThread.start("pipcam-memory") {
                while true {
                    Thread.sleep(forTimeInterval: givingBackInterval - trimmingTime)
                    pc_malloc_set_trim_threshold(0)
                    Thread.sleep(forTimeInterval: trimmingTime)
                    pc_malloc_set_trim_threshold(keptFreeMemory)
                    pc_malloc_give_back_free_memory()
                }
            }
        }
    }

    private static let givingBack = Locked(false)
}
