import TrellisModel

/// A picture (SVG) of the simulated screen's frames (SPEC §6): each frame a `<rect>` with a
/// `<title>` (its tooltip) drawn in order, bottom to top, and a visible `<text>` label naming the
/// controller and its size. Labels are drawn last, above every frame, so that a label is never
/// hidden by a frame drawn after it; labels that would start at the same corner stack.
public enum ScreenPicture {
    static let margin = 20.0
    static let header = 28.0
    static let lineHeight = 14.0

    /// The SVG document: well-formed XML, every text escaped.
    public static func svg(_ frames: [ScreenFrame], windowSize: Size, title: String) -> String {
        let width = windowSize.width + 2 * margin
        let height = windowSize.height + 2 * margin + header
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\""
            + " width=\"\(number(width))\" height=\"\(number(height))\""
            + " viewBox=\"0 0 \(number(width)) \(number(height))\""
            + " font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n"
        out += "  <title>\(escape(title))</title>\n"
        out += "  <text class=\"heading\" x=\"\(number(margin))\" y=\"\(number(margin + 12))\" font-size=\"14\" font-weight=\"bold\">"
            + escape(title + " — window " + windowSize.description) + "</text>\n"
        out += "  <g class=\"window\" transform=\"translate(\(number(margin)),\(number(margin + header)))\">\n"
        // The window's outline (a path, so that every <rect> is a frame).
        out += "    <path class=\"window-outline\" d=\"M0 0 H\(number(windowSize.width)) V\(number(windowSize.height)) H0 Z\""
            + " fill=\"none\" stroke=\"#222222\" stroke-width=\"2\"/>\n"
        out += "    <g class=\"frames\">\n"
        for (index, frame) in frames.enumerated() {
            out += "      <rect class=\"frame \(roleClass(frame.role))\" data-id=\"\(escape(frame.id.name))\" data-depth=\"\(frame.depth)\""
                + " x=\"\(number(frame.rect.origin.x))\" y=\"\(number(frame.rect.origin.y))\""
                + " width=\"\(number(frame.rect.size.width))\" height=\"\(number(frame.rect.size.height))\""
                + " " + paint(frame.role, index: index) + ">"
                + "<title>" + escape(tooltip(frame)) + "</title></rect>\n"
        }
        out += "    </g>\n"
        out += "    <g class=\"labels\" paint-order=\"stroke\" stroke=\"#ffffff\" stroke-width=\"3\" stroke-linejoin=\"round\">\n"
        for (frame, position) in zip(frames, labelPositions(frames)) {
            let colour = frame.role == .dimming ? "#000000" : "#111111"
            out += "      <text class=\"label \(roleClass(frame.role))\" data-id=\"\(escape(frame.id.name))\" data-depth=\"\(frame.depth)\""
                + " x=\"\(number(position.x))\" y=\"\(number(position.y))\" fill=\"\(colour)\">"
                + escape(label(frame)) + "</text>\n"
        }
        out += "    </g>\n"
        out += "  </g>\n"
        out += "</svg>\n"
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
        }
    }

    static func tooltip(_ frame: ScreenFrame) -> String {
        "\(frame.id) (\(frame.role)) at \(frame.rect)"
    }

    /// Where each label goes: inside the frame's top-left corner (a dimming view's bottom-left),
    /// one line lower for each earlier label at the same corner.
    static func labelPositions(_ frames: [ScreenFrame]) -> [Point] {
        var used: [Point: Int] = [:]
        return frames.map { frame in
            let atBottom = frame.role == .dimming
            let corner = Point(x: frame.rect.origin.x, y: atBottom ? frame.rect.origin.y + frame.rect.size.height : frame.rect.origin.y)
            let line = used[corner, default: 0]
            used[corner] = line + 1
            let y = atBottom
                ? corner.y - 6 - Double(line) * lineHeight
                : corner.y + lineHeight + Double(line) * lineHeight
            return Point(x: corner.x + 4, y: y)
        }
    }

    static func roleClass(_ role: ScreenFrame.Role) -> String {
        switch role {
        case .root: return "root"
        case .child: return "child"
        case .presentationContainer: return "container"
        case .presented: return "presented"
        case .wrapper: return "wrapper"
        case .dimming: return "dimming"
        }
    }

    /// Fill and stroke by role: dimming translucent black, presented frames and wrappers
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
        case .presented:
            return "fill=\"#ffffff\" fill-opacity=\"0.9\" stroke=\"#c0392b\" stroke-width=\"3\""
        case .wrapper:
            return "fill=\"#ffffff\" fill-opacity=\"0.9\" stroke=\"#2c6fbb\" stroke-width=\"3\" stroke-dasharray=\"10 4\""
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
