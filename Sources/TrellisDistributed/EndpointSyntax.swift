/// How an endpoint a node listens on or connects to is written (TWP §3: `ipc://PATH` or
/// `tcp://HOST:PORT`), checked before anything starts: a mistake there is a set-up mistake named
/// at once (exit 2), not a peer that never answers and a run that fails 30 s later (exit 3).
package enum EndpointSyntax {
    /// What the endpoint is for: listening accepts libzmq's wildcards (`tcp://*:5556`, port `*`
    /// for a free one), connecting needs a host and a port number.
    package enum Use: Sendable {
        case bind, connect
    }

    /// Why `text` is not an endpoint for `use`, in words that follow "… is not an endpoint: ";
    /// nil when it is one.
    package static func problem(with text: String, for use: Use) -> String? {
        if text.hasPrefix("ipc://") {
            return text.count > "ipc://".count ? nil : "ipc:// needs a path"
        }
        guard text.hasPrefix("tcp://") else { return "it is neither ipc://PATH nor tcp://HOST:PORT" }
        let address = text.dropFirst("tcp://".count)
        guard let colon = address.lastIndex(of: ":") else { return "tcp:// needs HOST:PORT" }
        let host = address[..<colon], port = address[address.index(after: colon)...]
        if host.isEmpty { return "tcp:// needs a host before the port" }
        switch use {
        case .bind:
            if port == "*" { return nil }
            guard let number = Int(port), (0...65535).contains(number) else { return "the port \"\(port)\" is not a number from 0 to 65535, or *" }
        case .connect:
            if host == "*" { return "* is for listening; connecting needs the host's name or address" }
            guard let number = Int(port), (1...65535).contains(number) else { return "the port \"\(port)\" is not a number from 1 to 65535" }
        }
        return nil
    }
}
