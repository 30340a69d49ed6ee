/// Holds the composed picture back until every camera in it has given its first frame, so a recording
/// never opens with a camera's place black for a picture or more because that camera started a little
/// after the other: the compositor starts with the first frame of either, and two cameras start tens to
/// hundreds of milliseconds apart (with frames put on the picture grid, a frame half a picture later is
/// already in the next picture). A camera that gives nothing for `patience` is not waited for: its place
/// shows black until its frames or its slate come. Pure logic, fed running times.
struct PictureStartGate: Sendable {
    private var firstFrames: [Duration?]
    private let patience: Duration
    private var firstPicture: Duration?
    private(set) var isOpen: Bool

    init(cameras: Int, patience: Duration) {
        firstFrames = Array(repeating: nil, count: cameras)
        self.patience = patience
        isOpen = cameras == 0
    }

    /// A frame of camera `index` reached the compositor, at `time`.
    mutating func frame(of index: Int, at time: Duration) {
        if firstFrames[index] == nil { firstFrames[index] = time }
    }

    /// Whether the picture composed for `time` is kept: every camera has a frame in it by then, or the
    /// first picture was `patience` ago. Once a picture is kept, every later one is.
    mutating func admits(pictureAt time: Duration) -> Bool {
        if isOpen { return true }
        let first = firstPicture ?? time
        firstPicture = first
        let frames = firstFrames.compactMap { $0 }
        if frames.count == firstFrames.count, let last = frames.max(), time >= last { isOpen = true }
        if time - first >= patience { isOpen = true }
        return isOpen
    }
}
