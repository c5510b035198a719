/// One element of a storyboard's XML, kept with where its start tag begins: every refusal of
/// the reader names a line and column (SPEC §11), and the mapping reads the tree more than once
/// (scenes, then ids, then segues).
public struct StoryboardElement: Sendable {
    /// The element's name as written (`viewController`, `segue`).
    public var name: String
    /// Its attributes as written, unescaped.
    public var attributes: [String: String]
    /// Its child elements in XML order (text and comments are not kept).
    public var children: [StoryboardElement]
    /// From 1, of the start tag's `<`.
    public var line: Int
    public var column: Int

    /// An element; tests and the reader build them, the parser fills them in.
    public init(name: String, attributes: [String: String] = [:], children: [StoryboardElement] = [], line: Int = 0, column: Int = 0) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.line = line
        self.column = column
    }

    /// The attribute named `attribute`, if written.
    public subscript(attribute: String) -> String? {
        attributes[attribute]
    }

    /// The first child element named `name` (with `key` when given, as Interface Builder keys
    /// the children it writes: `<rect key="frame">`, `<view key="view">`).
    public func child(_ name: String, key: String? = nil) -> StoryboardElement? {
        children.first { $0.name == name && (key == nil || $0["key"] == key) }
    }

    /// The children named `name`, in XML order.
    public func children(named name: String) -> [StoryboardElement] {
        children.filter { $0.name == name }
    }

    /// Calls `visit` on every element below this one, depth first in XML order, with the chain
    /// of elements from this one down to the visited one's parent; `visit` returns false to skip
    /// the visited element's own descendants.
    public func walk(_ visit: (StoryboardElement, [StoryboardElement]) -> Bool) {
        var ancestors: [StoryboardElement] = [self]
        walkChildren(of: self, ancestors: &ancestors, visit)
    }

    private func walkChildren(of element: StoryboardElement, ancestors: inout [StoryboardElement], _ visit: (StoryboardElement, [StoryboardElement]) -> Bool) {
        for child in element.children where visit(child, ancestors) {
            ancestors.append(child)
            walkChildren(of: child, ancestors: &ancestors, visit)
            ancestors.removeLast()
        }
    }
}
