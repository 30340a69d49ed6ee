/// Brightness and motion of a frame, read straight from its luma samples.
///
/// Mean luma covers every pixel. Motion compares a grid of at most about 160x90 samples with the same
/// grid of the previous frame (mean absolute difference, 0…1), so it costs the same at any frame size.
public struct LumaStatistics {
    private var previous: [UInt8] = []
    private var grid: [UInt8] = []

    public init() {}

    /// Mean luma (0…255) and motion (0…1), or nil when the frame's format has no luma to read.
    public mutating func measure(_ frame: VideoDataFrame) throws -> (meanLuma: Double, motion: Double)? {
        guard let layout = LumaLayout(pixelFormat: frame.pixelFormat) else { return nil }
        return try frame.withPlanes { planes -> (Double, Double)? in
            guard let plane = planes.first else { return nil }
            let width = frame.width, height = frame.height
            let mean = Self.meanLuma(plane, width: width, height: height, layout: layout)
            let step = max(1, min(width / 160, height / 90))
            let columns = (width + step - 1) / step, rows = (height + step - 1) / step
            if grid.count != columns * rows { grid = [UInt8](repeating: 0, count: columns * rows) }
            let bytes = plane.bytes.bindMemory(to: UInt8.self)
            grid.withUnsafeMutableBufferPointer { grid in
                for row in 0..<rows {
                    let start = row * step * plane.stride + layout.offset
                    for column in 0..<columns { grid[row * columns + column] = bytes[start + column * step * layout.step] }
                }
            }
            var motion = 0.0
            if previous.count == grid.count {
                var total = 0
                for index in grid.indices { total += abs(Int(grid[index]) &- Int(previous[index])) }
                motion = Double(total) / Double(grid.count) / 255
            }
            swap(&previous, &grid)
            return (mean, motion)
        }
    }

    /// Sums a row at a time into a 32-bit total, which the compiler vectorizes for planar luma.
    static func meanLuma(_ plane: VideoPlane, width: Int, height: Int, layout: LumaLayout) -> Double {
        var total: UInt64 = 0
        let bytes = plane.bytes.bindMemory(to: UInt8.self)
        for y in 0..<height {
            let row = UnsafeBufferPointer(rebasing: bytes[(y * plane.stride)..<(y * plane.stride + width * layout.step)])
            var sum: UInt32 = 0
            if layout.step == 1 {
                for value in row { sum &+= UInt32(value) }
            } else {
                for x in Swift.stride(from: layout.offset, to: row.count, by: layout.step) { sum &+= UInt32(row[x]) }
            }
            total += UInt64(sum)
        }
        return Double(total) / Double(max(1, width * height))
    }
}

/// Where the luma samples of a row are: every byte of plane 0 (planar YUV, gray), or every other byte of
/// packed 4:2:2 (YUY2 from most webcams, UYVY).
struct LumaLayout {
    let step: Int
    let offset: Int

    init?(pixelFormat: String) {
        switch pixelFormat {
        case "GRAY8", "I420", "YV12", "NV12", "NV21", "Y42B", "Y444", "Y41B", "NV16", "NV24": (step, offset) = (1, 0)
        case "YUY2", "YVYU": (step, offset) = (2, 0)
        case "UYVY", "VYUY": (step, offset) = (2, 1)
        default: return nil
        }
    }
}
