/// How the cameras share the recorded picture.
public struct Layout: Sendable, Hashable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case pictureInPicture = "picture-in-picture"
        case sideBySide = "side-by-side"
        case topBottom = "top-bottom"
    }

    public enum Corner: String, Sendable, Codable, CaseIterable {
        case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"
    }

    public var kind: Kind
    /// The input shown full frame (picture-in-picture) or first (left / top); the first camera when nil.
    public var mainInputID: String?
    public var corner: Corner
    /// Inset width as a fraction of the picture's width.
    public var insetSize: Double
    /// Gap between the inset and the picture's edges, as a fraction of the width.
    public var margin: Double

    public init(kind: Kind = .pictureInPicture, mainInputID: String? = nil, corner: Corner = .bottomRight,
                insetSize: Double = 0.3, margin: Double = 0.03) {
        self.kind = kind
        self.mainInputID = mainInputID
        self.corner = corner
        self.insetSize = insetSize
        self.margin = margin
    }

    /// Where each camera goes in a picture of `width`×`height`, main first.
    public func regions(width: Int, height: Int) -> (main: Region, inset: Region) {
        switch kind {
        case .pictureInPicture:
            let insetWidth = even(Double(width) * insetSize)
            let insetHeight = even(Double(insetWidth) * Double(height) / Double(width))
            let gap = even(Double(width) * margin)
            let x = (corner == .topLeft || corner == .bottomLeft) ? gap : width - gap - insetWidth
            let y = (corner == .topLeft || corner == .topRight) ? gap : height - gap - insetHeight
            return (Region(x: 0, y: 0, width: width, height: height, zOrder: 0),
                    Region(x: x, y: y, width: insetWidth, height: insetHeight, zOrder: 1))
        case .sideBySide:
            let half = even(Double(width) / 2)
            return (Region(x: 0, y: 0, width: half, height: height, zOrder: 0),
                    Region(x: half, y: 0, width: width - half, height: height, zOrder: 0))
        case .topBottom:
            let half = even(Double(height) / 2)
            return (Region(x: 0, y: 0, width: width, height: half, zOrder: 0),
                    Region(x: 0, y: half, width: width, height: height - half, zOrder: 0))
        }
    }

    /// Why the inset would reach past the edge of a `width`x`height` picture (its size and margin
    /// together too large); nil when it fits.
    public func insetProblem(width: Int, height: Int) -> String? {
        guard kind == .pictureInPicture else { return nil }
        let inset = regions(width: width, height: height).inset
        guard inset.x < 0 || inset.y < 0 || inset.x + inset.width > width || inset.y + inset.height > height else { return nil }
        return "the inset (size \(insetSize), margin \(margin)) reaches past the edge of the \(width)x\(height) picture: "
            + "make the size or the margin smaller"
    }

    /// Encoders and chroma subsampling want even sizes.
    private func even(_ value: Double) -> Int { max(2, Int(value.rounded()) & ~1) }
}

/// A rectangle of the composed picture.
public struct Region: Sendable, Hashable {
    public var x: Int, y: Int, width: Int, height: Int, zOrder: Int
}
