import CZeroMQ

/// The socket options Trellis sets, by name.
package enum ZMQOption {
    package static let linger = ZMQ_LINGER
    package static let routingID = ZMQ_ROUTING_ID
    package static let sendHighWaterMark = ZMQ_SNDHWM
    package static let receiveHighWaterMark = ZMQ_RCVHWM
    package static let routerMandatory = ZMQ_ROUTER_MANDATORY
    package static let maximumMessageSize = ZMQ_MAXMSGSIZE
    package static let immediate = ZMQ_IMMEDIATE
    package static let curveServer = ZMQ_CURVE_SERVER
    package static let curvePublicKey = ZMQ_CURVE_PUBLICKEY
    package static let curveSecretKey = ZMQ_CURVE_SECRETKEY
    package static let curveServerKey = ZMQ_CURVE_SERVERKEY
    package static let zapDomain = ZMQ_ZAP_DOMAIN
    package static let handshakeInterval = ZMQ_HANDSHAKE_IVL
    package static let reconnectInterval = ZMQ_RECONNECT_IVL
}
