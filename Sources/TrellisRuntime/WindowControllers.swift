import TrellisModel
import TrellisTrace

/// A window's controllers by id, kept by their names' positions in the window's recorder (each
/// controller interns its name when it is made) instead of in a dictionary of their own: the
/// recorder's index already maps every id to a dense position, so a second dictionary cost 84
/// bytes a controller at 100k where an array slot costs 16 (issue 27 item 7). An id the
/// recorder has not interned (a stand-in for a controller on another node) is kept in a small
/// dictionary beside the array, since looking an id up must not add it to the recorder's names.
package struct WindowControllers: Sendable {
    /// The recorder whose name positions index `byPosition`.
    private let recorder: TraceRecorder
    /// The controller whose name is at each position, nil where there is none.
    private var byPosition: [(any ManagedController)?]
    /// Controllers set while their ids were not interned.
    private var others: [ControllerID: any ManagedController] = [:]

    /// An empty table for `count` controllers about to be made with `recorder`.
    init(recorder: TraceRecorder, capacity count: Int) {
        self.recorder = recorder
        byPosition = []
        byPosition.reserveCapacity(count)
    }

    /// The controller of `id`, nil when there is none; setting nil removes it.
    package subscript(id: ControllerID) -> (any ManagedController)? {
        get {
            if let position = recorder.internedName(id)?.position, position < byPosition.count,
                let controller = byPosition[position]
            {
                return controller
            }
            return others.isEmpty ? nil : others[id]
        }
        set {
            if !others.isEmpty { others[id] = nil }
            guard let position = recorder.internedName(id)?.position else {
                if let newValue { others[id] = newValue }
                return
            }
            if position >= byPosition.count {
                guard newValue != nil else { return }
                byPosition.append(contentsOf: repeatElement(nil, count: position + 1 - byPosition.count))
            }
            byPosition[position] = newValue
        }
    }

    /// Every controller by its id (each controller's own), for a transport that serves them.
    package var dictionary: [ControllerID: any ManagedController] {
        var all = others
        all.reserveCapacity(others.count + byPosition.count)
        for case let controller? in byPosition { all[controller.id] = controller }
        return all
    }
}
