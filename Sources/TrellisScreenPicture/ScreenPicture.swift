import TrellisModel
import TrellisRuntime

/// A picture (SVG) of the simulated screen's frames (SPEC §6): each frame a `<rect>` with a
/// `<title>` (its tooltip) drawn in order, bottom to top, and a visible `<text>` label naming the
/// controller and its size.
///
/// - A popover's source rect (R62) is outlined faintly under the popover, and an arrow (a
///   `<path class="popover-arrow">`, never a `<rect>`: every `<rect>` is a frame) goes from the
///   popover's edge nearest the source to the source. Dimming views are drawn where the frame
///   list puts them: over their container view, under the presented view (R64). A regular
///   split view's 1-point divider (§3.2) is a dark frame over its columns' edges, so that the
///   gap between the columns shows even where their outlines meet it.
/// - The heading (the title and the window's size) is wrapped onto as many lines as it needs at
///   the picture's width, and the picture is made at least as wide as its widest line, so that it
///   is never clipped.
/// - Labels are drawn last, above every frame, so that a label is never hidden by a frame drawn
///   after it. Each label's box (its text's estimated width by one line) starts inside its frame's
///   top-left corner (a dimming view's bottom-left) and moves down (up for a dimming view) past
///   the labels placed before it that it meets, and right past popover arrows and small popover
///   sources; no two label boxes intersect.
///
/// Text widths are estimates (`textWidth`): per-character advances of DejaVu Sans, the widest
/// of the usual fallbacks for Helvetica and Arial, so that a real renderer draws no wider.
public enum ScreenPicture {
    static let margin = 20.0
    /// The heading's font size, the distance between its lines, and the least width it wraps at
    /// (a phone-sized window makes the picture wider rather than the heading very tall).
    public static let headingFontSize = 14.0
    static let headingLineHeight = 18.0
    static let headingMinimumWidth = 480.0
    /// The labels' font size and the height of one label line (its box's height).
    public static let labelFontSize = 12.0
    public static let lineHeight = 14.0
    /// A label's baseline is this far below its box's top; its text starts `labelInset` inside its frame.
    static let labelAscent = 11.0
    static let labelInset = 4.0
    /// A popover arrow's half base width and the depth it reaches into a source that abuts the popover.
    static let arrowHalfBase = 8.0
    static let arrowDepth = 12.0

    /// The most pixels the picture's `width` or `height` asks for (its viewBox is the scene's
    /// size in points, one pixel a point below this).
    public static let largestSide = 4096.0

    /// The SVG document: well-formed XML, every text escaped.
    public static func svg(_ frames: [ScreenFrame], windowSize: Size, title: String) -> String {
        let positions = labelPositions(frames)
        let labels = frames.map(label)
        let boxes = zip(labels, positions).map { labelBox($0, at: $1) }
        let arrows = frames.map(popoverArrow)
        let content = drawnBounds(frames, windowSize: windowSize, arrows: arrows, boxes: boxes)

        let heading = title + " — window " + windowSize.description
        let headingLines = wrap(heading, width: max(content.size.width, headingMinimumWidth), fontSize: headingFontSize, bold: true)
        let headingWidth = headingLines.map { textWidth($0, fontSize: headingFontSize, bold: true) }.max() ?? 0
        let header = Double(headingLines.count) * headingLineHeight + 10
        let width = (max(content.size.width, headingWidth) + 2 * margin).rounded(.up)
        let height = (content.size.height + 2 * margin + header).rounded(.up)

        // One pixel a point, up to `largestSide` on the longer side: a window of a million
        // points drawn at its size is an image no renderer makes (rsvg-convert's limit is 32767
        // pixels). The viewBox stays the scene's, so a bigger one is scaled down whole.
        let scale = min(1, largestSide / max(width, height))
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\""
            + " width=\"\(number((width * scale).rounded(.up)))\" height=\"\(number((height * scale).rounded(.up)))\""
            + " viewBox=\"0 0 \(number(width)) \(number(height))\""
            + " font-family=\"Helvetica, Arial, sans-serif\" font-size=\"\(number(labelFontSize))\">\n"
        out += "  <title>\(escape(title))</title>\n"
        out += headingText(headingLines)
        let origin = Point(x: margin - content.origin.x, y: margin + header - content.origin.y)
        out += "  <g class=\"window\" transform=\"translate(\(number(origin.x)),\(number(origin.y)))\">\n"
        // The window's outline (a path, so that every <rect> is a frame).
        out += "    <path class=\"window-outline\" d=\"M0 0 H\(number(windowSize.width)) V\(number(windowSize.height)) H0 Z\""
            + " fill=\"none\" stroke=\"#222222\" stroke-width=\"2\"/>\n"
        out += framesGroup(frames, arrows: arrows)
        out += labelsGroup(frames, labels: labels, positions: positions)
        out += "  </g>\n"
        out += "</svg>\n"
        return out
    }

    /// What is drawn, in window coordinates: the window, the frames, popover sources and
    /// arrows, and the labels (which may stand outside the window when it is crowded).
    static func drawnBounds(_ frames: [ScreenFrame], windowSize: Size, arrows: [Arrow?], boxes: [Rect]) -> Rect {
        var bounds = Bounds(Rect(windowSize))
        for frame in frames {
            bounds.add(frame.rect)
            if let source = frame.popoverSource { bounds.add(source) }
        }
        for arrow in arrows.compactMap({ $0 }) {
            for point in arrow.points { bounds.add(Rect(origin: point, .zero)) }
        }
        for box in boxes { bounds.add(box) }
        return bounds.rect
    }

    /// The heading's `<text>`, a `<tspan>` a line.
    static func headingText(_ lines: [String]) -> String {
        var out = "  <text class=\"heading\" x=\"\(number(margin))\" y=\"\(number(margin + 13))\""
            + " font-size=\"\(number(headingFontSize))\" font-weight=\"bold\">"
        for (index, line) in lines.enumerated() {
            out += "<tspan x=\"\(number(margin))\" y=\"\(number(margin + 13 + Double(index) * headingLineHeight))\">"
                + escape(line) + "</tspan>"
        }
        out += "</text>\n"
        return out
    }

    /// The frames, bottom to top, each after its popover source and before its popover arrow.
    static func framesGroup(_ frames: [ScreenFrame], arrows: [Arrow?]) -> String {
        var out = "    <g class=\"frames\">\n"
        for (index, frame) in frames.enumerated() {
            if let source = frame.popoverSource {
                // The source rect, faintly, under the popover.
                out += "      <path class=\"popover-source\" data-id=\"\(escape(frame.id.name))\""
                    + " d=\"M\(number(source.minX)) \(number(source.minY)) H\(number(source.maxX))"
                    + " V\(number(source.maxY)) H\(number(source.minX)) Z\""
                    + " fill=\"\(accent(frame.role))\" fill-opacity=\"0.12\" stroke=\"\(accent(frame.role))\""
                    + " stroke-opacity=\"0.7\" stroke-width=\"1\" stroke-dasharray=\"3 2\">"
                    + "<title>" + escape("\(frame.id)'s popover source at \(source)") + "</title></path>\n"
            }
            out += "      <rect class=\"frame \(roleClass(frame.role))\" data-id=\"\(escape(frame.id.name))\" data-depth=\"\(frame.depth)\""
                + " x=\"\(number(frame.rect.origin.x))\" y=\"\(number(frame.rect.origin.y))\""
                + " width=\"\(number(frame.rect.size.width))\" height=\"\(number(frame.rect.size.height))\""
                + " " + paint(frame.role, index: index) + ">"
                + "<title>" + escape(tooltip(frame)) + "</title></rect>\n"
            if let arrow = arrows[index] {
                // Base to tip to base: the fill joins the popover, the stroke leaves the base open.
                out += "      <path class=\"popover-arrow\" data-id=\"\(escape(frame.id.name))\" data-edge=\"\(arrow.edge.rawValue)\""
                    + " d=\"M\(number(arrow.base.0.x)) \(number(arrow.base.0.y))"
                    + " L\(number(arrow.tip.x)) \(number(arrow.tip.y))"
                    + " L\(number(arrow.base.1.x)) \(number(arrow.base.1.y))\""
                    + " fill=\"#ffffff\" stroke=\"\(accent(frame.role))\" stroke-width=\"2\" stroke-linejoin=\"round\"/>\n"
            }
        }
        out += "    </g>\n"
        return out
    }

    /// The labels, drawn last so that no frame hides one.
    static func labelsGroup(_ frames: [ScreenFrame], labels: [String], positions: [Point]) -> String {
        var out = "    <g class=\"labels\" paint-order=\"stroke\" stroke=\"#ffffff\" stroke-width=\"3\" stroke-linejoin=\"round\">\n"
        for (index, frame) in frames.enumerated() {
            let position = positions[index]
            let colour = frame.role == .dimming ? "#000000" : "#111111"
            out += "      <text class=\"label \(roleClass(frame.role))\" data-id=\"\(escape(frame.id.name))\" data-depth=\"\(frame.depth)\""
                + " x=\"\(number(position.x))\" y=\"\(number(position.y))\" fill=\"\(colour)\">"
                + escape(labels[index]) + "</text>\n"
        }
        out += "    </g>\n"
        return out
    }

    /// The visible label: the controller and its size, and what it is when it is not a plain child.
    public static func label(_ frame: ScreenFrame) -> String {
        let size = frame.rect.size.description
        switch frame.role {
        case .root, .child: return "\(frame.id) \(size)"
        case let .presented(style): return "\(frame.id) \(size) \(style.rawValue)"
        case .wrapper: return "\(frame.id) \(size) wrapper"
        case let .presentationContainer(style): return "\(frame.id) container \(style.rawValue)"
        case .dimming: return "\(frame.id) dimming"
        case .divider: return "\(frame.id) divider"
        }
    }

    static func tooltip(_ frame: ScreenFrame) -> String {
        var text = "\(frame.id) (\(frame.role)) at \(frame.rect)"
        if let source = frame.popoverSource { text += ", source " + source.description }
        return text
    }

    // MARK: Labels

    /// The box a label with baseline start `position` takes (window coordinates): its estimated
    /// width, padded by the white halo, by one line.
    public static func labelBox(_ text: String, at position: Point) -> Rect {
        Rect(x: position.x - 2, y: position.y - labelAscent,
             width: textWidth(text, fontSize: labelFontSize) + 4, height: lineHeight)
    }

    /// Where each label's baseline starts, in window coordinates. A label starts inside its
    /// frame's top-left corner (a dimming view's bottom-left) and moves down (a dimming view's up,
    /// then down from its bottom once it reaches its top) to just below (above) the labels in its
    /// way, until its box meets no label placed before it; a popover arrow, or a popover source
    /// small enough to be hidden, moves it right instead, past the arrow or source, when it still
    /// fits in its frame there. It goes past its frame only when its frame is full.
    static func labelPositions(_ frames: [ScreenFrame]) -> [Point] {
        // Each label is checked against every label placed before it, which is quadratic or
        // worse: a picture of thousands of frames (a generated hierarchy 10,000 deep) stacks its
        // labels at their corners instead, which is linear.
        guard frames.count <= maxArrangedLabels else { return stackedLabelPositions(frames) }
        // Popover arrows, and sources small enough to be hidden by a label, are kept clear too.
        let keepClear: [Rect] = frames.flatMap { frame -> [Rect] in
            var rects: [Rect] = []
            if let arrow = popoverArrow(frame) { rects.append(arrow.bounds) }
            if let source = frame.popoverSource, source.size.height <= 4 * lineHeight { rects.append(source) }
            return rects
        }
        var placed: [Rect] = []
        return frames.map { frame in
            let text = label(frame)
            let start = frame.rect.minX + labelInset
            let right = max(frame.rect.maxX, labelBox(text, at: Point(x: start, y: 0)).maxX)
            // Where the label fits on the line with baseline `y`: at its frame's left, or just
            // right of an arrow or source in the way (inside the frame). Else what is in the way.
            func fit(_ y: Double) -> (position: Point?, inTheWay: [Rect]) {
                var x = start
                while true {
                    let box = labelBox(text, at: Point(x: x, y: y))
                    let labels = placed.filter { $0.intersects(box) }
                    if !labels.isEmpty { return (nil, labels) }
                    let obstacles = keepClear.filter { $0.intersects(box) }
                    guard let obstacle = obstacles.max(by: { $0.maxX < $1.maxX }) else { return (Point(x: x, y: y), []) }
                    x = obstacle.maxX + 4
                    if labelBox(text, at: Point(x: x, y: y)).maxX > right { return (nil, obstacles) }
                }
            }
            // Down from baseline `y` until the label fits, each time just below what was in the
            // way: every line below the lowest label, arrow and source is free, so this ends.
            func down(from y: Double) -> Point {
                var y = y
                while true {
                    let attempt = fit(y)
                    if let position = attempt.position { return position }
                    // `fit` returns no position only with what is in the way.
                    y = max(y + 1, (attempt.inTheWay.map(\.maxY).max() ?? y) + labelAscent)
                }
            }
            let top = frame.rect.minY + lineHeight
            var position: Point?
            if frame.role == .dimming {
                // Up from the bottom-left corner, each time just above what was in the way,
                // while inside the frame; then below the frame.
                let bottom = frame.rect.maxY - 6
                var y = bottom
                while position == nil, y >= top {
                    let attempt = fit(y)
                    position = attempt.position
                    y = min(y - 1, attempt.inTheWay.map(\.minY).min() ?? y - (lineHeight - labelAscent))
                        - (lineHeight - labelAscent)
                }
                if position == nil { position = down(from: bottom + lineHeight) }
            } else {
                position = down(from: top)
            }
            let point = position ?? down(from: top)
            placed.append(labelBox(text, at: point))
            return point
        }
    }

    /// Past this many frames, labels are stacked at their corners (`stackedLabelPositions`).
    static let maxArrangedLabels = 400

    /// Each label inside its frame's top-left corner (a dimming view's bottom-left), one line
    /// lower (higher) for each earlier label at the same corner: linear in the frames.
    static func stackedLabelPositions(_ frames: [ScreenFrame]) -> [Point] {
        var used: [Point: Int] = [:]
        return frames.map { frame in
            let atBottom = frame.role == .dimming
            let corner = Point(x: frame.rect.minX, y: atBottom ? frame.rect.maxY : frame.rect.minY)
            let line = used[corner, default: 0]
            used[corner] = line + 1
            let y = atBottom ? corner.y - 6 - Double(line) * lineHeight : corner.y + lineHeight + Double(line) * lineHeight
            return Point(x: corner.x + labelInset, y: y)
        }
    }

    // MARK: Popovers

    /// A popover's arrow: a triangle whose base lies on the popover's edge nearest its source
    /// and whose tip is at the source: on the source's facing edge when the two are apart, and
    /// `arrowDepth` into the source (at most to its centre) when they abut, so that the arrow is
    /// always visible. Nil for a frame without a source, or when the popover covers the source's
    /// centre (there is nowhere to point).
    struct Arrow {
        enum Edge: String { case top, bottom, left, right }
        var edge: Edge
        var base: (Point, Point)
        var tip: Point
        var points: [Point] { [base.0, tip, base.1] }
        var bounds: Rect {
            let xs = [base.0.x, tip.x, base.1.x], ys = [base.0.y, tip.y, base.1.y]
            let minX = min(xs[0], xs[1], xs[2]), maxX = max(xs[0], xs[1], xs[2])
            let minY = min(ys[0], ys[1], ys[2]), maxY = max(ys[0], ys[1], ys[2])
            return Rect(x: minX - 1, y: minY - 1, width: maxX - minX + 2, height: maxY - minY + 2)
        }
    }

    static func popoverArrow(_ frame: ScreenFrame) -> Arrow? {
        guard let source = frame.popoverSource else { return nil }
        let popover = frame.rect
        let epsilon = 1e-9
        // Distance from each popover edge out to the source's facing edge (the gap) and to its centre.
        let sides: [(edge: Arrow.Edge, gap: Double, centre: Double)] = [
            (.top, popover.minY - source.maxY, popover.minY - source.midY),
            (.bottom, source.minY - popover.maxY, source.midY - popover.maxY),
            (.left, popover.minX - source.maxX, popover.minX - source.midX),
            (.right, source.minX - popover.maxX, source.midX - popover.maxX),
        ]
        // The edge the source is beside (R62's order: below, above, right, left); when the
        // popover was moved over its source, the edge the source's centre is farthest outside.
        guard let side = sides.first(where: { $0.gap >= -epsilon }) ?? sides.max(by: { $0.centre < $1.centre }),
              side.centre > epsilon else { return nil }
        let depth = side.gap >= -epsilon ? max(side.gap, min(arrowDepth, side.centre)) : side.centre
        func along(_ low: Double, _ high: Double, _ target: Double) -> Double {
            let inset = arrowHalfBase + 4
            return high - low < 2 * inset ? (low + high) / 2 : min(max(target, low + inset), high - inset)
        }
        switch side.edge {
        case .top, .bottom:
            let x = along(popover.minX, popover.maxX, source.midX)
            let y = side.edge == .top ? popover.minY : popover.maxY
            let tipY = side.edge == .top ? y - depth : y + depth
            return Arrow(edge: side.edge, base: (Point(x: x - arrowHalfBase, y: y), Point(x: x + arrowHalfBase, y: y)),
                         tip: Point(x: source.midX, y: tipY))
        case .left, .right:
            let y = along(popover.minY, popover.maxY, source.midY)
            let x = side.edge == .left ? popover.minX : popover.maxX
            let tipX = side.edge == .left ? x - depth : x + depth
            return Arrow(edge: side.edge, base: (Point(x: x, y: y - arrowHalfBase), Point(x: x, y: y + arrowHalfBase)),
                         tip: Point(x: tipX, y: source.midY))
        }
    }

    // MARK: Text

    /// The estimated width of `text` at `fontSize`: the sum of per-character advances (in ems)
    /// of DejaVu Sans, rounded up by character class, bold 12% wider.
    public static func textWidth(_ text: String, fontSize: Double, bold: Bool = false) -> Double {
        let ems = text.unicodeScalars.reduce(0.0) { $0 + advance($1) }
        return ems * fontSize * (bold ? 1.12 : 1)
    }

    static func advance(_ scalar: Unicode.Scalar) -> Double {
        switch scalar {
        case " ", "i", "j", "l", "I", ".", ",", ":", ";", "'", "|", "!", "`": return 0.34
        case "f", "r", "t", "(", ")", "[", "]", "{", "}", "-", "/", "\\", "\"", "*": return 0.45
        case "m", "w", "M", "W", "@", "%", "&", "—", "…": return 1.0
        case "0"..."9": return 0.64
        case "A"..."Z", "#", "$", "+", "<", "=", ">", "?", "^", "_", "~": return 0.76
        case "\u{0300}"..."\u{036F}", "\u{200B}"..."\u{200F}", "\u{FE00}"..."\u{FE0F}": return 0
        default: return scalar.value >= 0x1100 ? 1.2 : 0.7
        }
    }

    /// `text` on lines no wider than `width`, broken at spaces (a word wider than a line is
    /// broken between characters). Lines joined by single spaces give `text` back when no word
    /// had to be broken.
    static func wrap(_ text: String, width: Double, fontSize: Double, bold: Bool) -> [String] {
        func fits(_ line: String) -> Bool { textWidth(line, fontSize: fontSize, bold: bold) <= width }
        var lines: [String] = []
        var current: String?
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            if let line = current, fits(line + " " + word) {
                current = line + " " + word
                continue
            }
            if let line = current { lines.append(line) }
            current = word
            // A word wider than a line: break it between characters.
            while let line = current, !fits(line), line.count > 1 {
                var head = ""
                for character in line {
                    if !head.isEmpty, !fits(head + String(character)) { break }
                    head.append(character)
                }
                lines.append(head)
                current = String(line.dropFirst(head.count))
            }
        }
        if let line = current { lines.append(line) }
        return lines
    }

    // MARK: Paint

    static func roleClass(_ role: ScreenFrame.Role) -> String {
        switch role {
        case .root: return "root"
        case .child: return "child"
        case .presentationContainer: return "container"
        case .presented: return "presented"
        case .wrapper: return "wrapper"
        case .dimming: return "dimming"
        case .divider: return "divider"
        }
    }

    /// The stroke colour of presented frames and wrappers, which their popover arrows share.
    static func accent(_ role: ScreenFrame.Role) -> String {
        role == .wrapper ? "#2c6fbb" : "#c0392b"
    }

    /// Fill and stroke by role: dimming translucent black, a split view's divider solid dark
    /// (drawn after the columns, so their outlines do not hide it), presented frames and wrappers
    /// outlined, containers dashed, controllers in light translucent tints.
    static func paint(_ role: ScreenFrame.Role, index: Int) -> String {
        let tints = ["#dbe9f6", "#e3f1df", "#fbeedd", "#efe3f4", "#f6f3d6"]
        switch role {
        case .root:
            return "fill=\"#f4f6f8\" stroke=\"#5b6770\" stroke-width=\"1\""
        case .child:
            return "fill=\"\(tints[index % tints.count])\" fill-opacity=\"0.7\" stroke=\"#5b6770\" stroke-width=\"1\""
        case .presentationContainer:
            return "fill=\"none\" stroke=\"#8a8a8a\" stroke-width=\"1\" stroke-dasharray=\"6 4\""
        case .dimming:
            return "fill=\"#000000\" fill-opacity=\"0.3\" stroke=\"none\""
        case .divider:
            return "fill=\"#222222\" stroke=\"none\""
        case .presented:
            return "fill=\"#ffffff\" fill-opacity=\"0.9\" stroke=\"\(accent(role))\" stroke-width=\"3\""
        case .wrapper:
            return "fill=\"#ffffff\" fill-opacity=\"0.9\" stroke=\"\(accent(role))\" stroke-width=\"3\" stroke-dasharray=\"10 4\""
        }
    }

    static func number(_ value: Double) -> String {
        CanonicalNumber.format(value)
    }

    /// XML text and attribute escaping; characters XML 1.0 does not allow become U+FFFD.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                let allowed = (value >= 0x20 && value <= 0xD7FF) || (value >= 0xE000 && value <= 0xFFFD) || value >= 0x10000
                out.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
            }
        }
        return out
    }
}

/// The smallest rect holding every rect added (window coordinates).
private struct Bounds {
    var minX, minY, maxX, maxY: Double

    init(_ rect: Rect) {
        (minX, minY, maxX, maxY) = (rect.minX, rect.minY, rect.maxX, rect.maxY)
    }

    mutating func add(_ rect: Rect) {
        guard rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite else { return }
        minX = min(minX, rect.minX)
        minY = min(minY, rect.minY)
        maxX = max(maxX, rect.maxX)
        maxY = max(maxY, rect.maxY)
    }

    var rect: Rect { Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY) }
}

extension Rect {
    /// Whether the two rects share interior points (touching edges do not count).
    fileprivate func intersects(_ other: Rect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }
}
