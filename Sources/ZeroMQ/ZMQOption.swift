import CZeroMQ

/// The socket options Trellis sets, by name.
public enum ZMQOption {
    public static let linger = ZMQ_LINGER
    public static let routingID = ZMQ_ROUTING_ID
    public static let sendHighWaterMark = ZMQ_SNDHWM
    public static let receiveHighWaterMark = ZMQ_RCVHWM
    public static let routerMandatory = ZMQ_ROUTER_MANDATORY
    public static let maximumMessageSize = ZMQ_MAXMSGSIZE
    public static let immediate = ZMQ_IMMEDIATE
    public static let curveServer = ZMQ_CURVE_SERVER
    public static let curvePublicKey = ZMQ_CURVE_PUBLICKEY
    public static let curveSecretKey = ZMQ_CURVE_SECRETKEY
    public static let curveServerKey = ZMQ_CURVE_SERVERKEY
    public static let zapDomain = ZMQ_ZAP_DOMAIN
    public static let handshakeInterval = ZMQ_HANDSHAKE_IVL
    public static let reconnectInterval = ZMQ_RECONNECT_IVL
}
