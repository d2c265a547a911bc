import Foundation

//  obs-websocket 5 (`--obs-websocket`): one connection's side of the protocol as obs-websocket's
//  protocol.md publishes it: Hello (with the authentication challenge and salt), Identify, Identified,
//  Reidentify, Request / RequestResponse, RequestBatch / RequestBatchResponse and Event, JSON text only
//  (the `obswebsocket.json` subprotocol). Pure: the adapter (DuoWebRemote) carries the frames, the
//  requests are answered by `ObsRequests`, DuoCLI composes.

/// The protocol's message kinds (`op`).
public enum ObsOpCode: Int, Sendable {
    case hello = 0, identify = 1, identified = 2, reidentify = 3, event = 5, request = 6, requestResponse = 7
    case requestBatch = 8, requestBatchResponse = 9
}

/// The WebSocket close codes obs-websocket closes a session with (`WebSocketCloseCode`).
public enum ObsCloseCode: Int, Sendable {
    case messageDecodeError = 4002, missingDataField = 4003, invalidDataFieldType = 4004, invalidDataFieldValue = 4005
    case unknownOpCode = 4006, notIdentified = 4007, alreadyIdentified = 4008, authenticationFailed = 4009
    case unsupportedRpcVersion = 4010
}

/// A request's result code (`RequestStatus`).
public enum ObsStatus: Int, Sendable {
    case success = 100
    case missingRequestType = 203, unknownRequestType = 204, genericError = 205, unsupportedRequestBatchExecutionType = 206
    case notReady = 207
    case missingRequestField = 300, missingRequestData = 301
    case invalidRequestField = 400, invalidRequestFieldType = 401, requestFieldOutOfRange = 402, requestFieldEmpty = 403
    case outputRunning = 500, outputNotRunning = 501, outputPaused = 502, outputNotPaused = 503
    case studioModeNotActive = 506
    case resourceNotFound = 600
    case requestProcessingFailed = 702, cannotAct = 703
}

/// Which events a session asked for (`EventSubscription` bits).
public enum ObsSubscription {
    public static let general = 1 << 0, scenes = 1 << 2, outputs = 1 << 6, vendors = 1 << 9
    /// `All`: every non-high-volume category, the protocol's default.
    public static let all = 0x7FF
}

/// One request of a `Request` or a batch: its type, the client's id for it and its data.
public struct ObsRequest: Sendable {
    public let type: String
    public let id: String
    /// The client sent its id as a number (obsws-python does): answered as one.
    public var numericID = false
    /// The request's `requestData`, as JSON text (kept as bytes so the request is Sendable).
    private let json: Data

    public init(type: String, id: String, data: [String: Any]) {
        self.type = type
        self.id = id
        json = (try? JSONSerialization.data(withJSONObject: data)) ?? Data("{}".utf8)
    }

    /// The request's `requestData` (JSON values: String, NSNumber, arrays, dictionaries).
    public var data: [String: Any] { (try? JSONSerialization.jsonObject(with: json)) as? [String: Any] ?? [:] }
}

/// One connection's protocol state: it says Hello, waits for a correct Identify, then takes requests.
/// A client that breaks the protocol is closed with the code the protocol names for it; a request the
/// server does not know is answered with its status, never a closed connection.
///
/// Thread: value type; the owner keeps one per connection behind its lock. The hash (SHA-256, base64)
/// is given: DuoCore computes no digests.
public struct ObsWebSocketSession: Sendable {
    /// What to do with one message a client sent.
    public enum Step: Sendable {
        /// Send these lines (an Identified).
        case send([String])
        /// Answer this request (`ObsWebSocketSession.response` makes the line).
        case request(ObsRequest)
        /// Answer these requests, in order, as one `RequestBatchResponse` with this id.
        case batch(id: String, requests: [ObsRequest], haltOnFailure: Bool, serial: Bool)
        /// Close the connection with this code and reason (the reason is also the log line's).
        case close(ObsCloseCode, String)
    }

    /// The challenge and salt said in Hello (nil: no password, no authentication).
    public let challenge: String?
    public let salt: String?
    /// The authentication string a client with the right password sends.
    private let expected: String?
    public private(set) var identified = false
    public private(set) var subscriptions = ObsSubscription.all

    /// `hash` is base64(SHA-256(text)) of the text's UTF-8 bytes. `challenge` and `salt` are random.
    public init(password: String?, challenge: String, salt: String, hash: (String) -> String) {
        if let password {
            self.challenge = challenge
            self.salt = salt
            expected = hash(hash(password + salt) + challenge)
        } else {
            self.challenge = nil
            self.salt = nil
            expected = nil
        }
    }

    /// The Hello a new connection gets first.
    public func hello(version: String) -> String {
        var d: [String: Any] = ["obsWebSocketVersion": version, "rpcVersion": 1]
        if let challenge, let salt { d["authentication"] = ["challenge": challenge, "salt": salt] }
        return Self.message(.hello, d)
    }

    /// Whether this session asked for events of `category` (an `ObsSubscription` bit).
    public func wants(_ category: Int) -> Bool { identified && subscriptions & category != 0 }

    /// One text message from the client.
    public mutating func receive(_ text: String) -> Step {
        guard let data = text.data(using: .utf8), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return .close(.messageDecodeError, "not a JSON object (obs-websocket sends {\"op\":…,\"d\":{…}})")
        }
        guard let opValue = object["op"] as? NSNumber else {
            return .close(.missingDataField, "no \"op\" number in the message")
        }
        guard let d = object["d"] as? [String: Any] else { return .close(.missingDataField, "no \"d\" object in the message") }
        guard let op = ObsOpCode(rawValue: opValue.intValue), [.identify, .reidentify, .request, .requestBatch].contains(op) else {
            return .close(.unknownOpCode, "op \(opValue) is not one a client sends (1 Identify, 3 Reidentify, 6 Request, 8 RequestBatch)")
        }
        switch op {
        case .identify:
            guard !identified else { return .close(.alreadyIdentified, "Identify sent twice (send Reidentify to change subscriptions)") }
            guard let rpc = d["rpcVersion"] as? NSNumber else {
                return .close(.missingDataField, "Identify has no \"rpcVersion\" number")
            }
            guard rpc.intValue == 1 else { return .close(.unsupportedRpcVersion, "rpcVersion \(rpc) is not supported (1 is)") }
            if let expected {
                guard let given = d["authentication"] as? String else {
                    return .close(.authenticationFailed, "no authentication given (this server has a password)")
                }
                guard Self.same(given, expected) else { return .close(.authenticationFailed, "wrong password") }
            }
            if let subs = d["eventSubscriptions"] {
                guard let n = subs as? NSNumber else {
                    return .close(.invalidDataFieldType, "\"eventSubscriptions\" is not a number")
                }
                subscriptions = n.intValue
            }
            identified = true
            return .send([Self.message(.identified, ["negotiatedRpcVersion": 1])])
        case .reidentify:
            guard identified else { return .close(.notIdentified, "Reidentify before Identify") }
            if let subs = d["eventSubscriptions"] {
                guard let n = subs as? NSNumber else {
                    return .close(.invalidDataFieldType, "\"eventSubscriptions\" is not a number")
                }
                subscriptions = n.intValue
            }
            return .send([Self.message(.identified, ["negotiatedRpcVersion": 1])])
        case .request:
            guard identified else { return .close(.notIdentified, "a Request before Identify") }
            guard let id = Self.id(d["requestId"]) else { return .close(.missingDataField, "a Request without \"requestId\"") }
            var request = ObsRequest(type: d["requestType"] as? String ?? "", id: id.text, data: d["requestData"] as? [String: Any] ?? [:])
            request.numericID = id.number
            return .request(request)
        case .requestBatch:
            guard identified else { return .close(.notIdentified, "a RequestBatch before Identify") }
            guard let id = Self.id(d["requestId"])?.text else { return .close(.missingDataField, "a RequestBatch without \"requestId\"") }
            guard let list = d["requests"] as? [Any] else { return .close(.missingDataField, "a RequestBatch without \"requests\"") }
            let requests = list.map { item -> ObsRequest in
                let r = item as? [String: Any] ?? [:]
                let id = Self.id(r["requestId"])
                var request = ObsRequest(type: r["requestType"] as? String ?? "", id: id?.text ?? "", data: r["requestData"] as? [String: Any] ?? [:])
                request.numericID = id?.number ?? false
                return request
            }
            // -1 None and 0 SerialRealtime and 1 SerialFrame run in order; 2 Parallel is not offered.
            let execution = (d["executionType"] as? NSNumber)?.intValue ?? 0
            return .batch(id: id, requests: requests, haltOnFailure: (d["haltOnFailure"] as? Bool) ?? false, serial: execution != 2)
        default:
            return .close(.unknownOpCode, "op \(op.rawValue)")
        }
    }

    // MARK: Lines

    /// A `RequestResponse`'s `d` for one request (also a batch's result).
    public static func result(_ request: ObsRequest, _ status: ObsStatus, comment: String? = nil, data: [String: Any]? = nil) -> [String: Any] {
        var s: [String: Any] = ["result": status == .success, "code": status.rawValue]
        if let comment { s["comment"] = comment }
        let id: Any = request.numericID ? (Int(request.id).map { $0 as Any } ?? request.id) : request.id
        var d: [String: Any] = ["requestType": request.type, "requestId": id, "requestStatus": s]
        if let data { d["responseData"] = data }
        return d
    }

    public static func response(_ request: ObsRequest, _ status: ObsStatus, comment: String? = nil, data: [String: Any]? = nil) -> String {
        message(.requestResponse, result(request, status, comment: comment, data: data))
    }

    public static func batchResponse(id: String, results: [[String: Any]]) -> String {
        message(.requestBatchResponse, ["requestId": id, "results": results])
    }

    public static func event(_ type: String, intent: Int, data: [String: Any]?) -> String {
        var d: [String: Any] = ["eventType": type, "eventIntent": intent]
        if let data { d["eventData"] = data }
        return message(.event, d)
    }

    public static func message(_ op: ObsOpCode, _ d: [String: Any]) -> String {
        let object: [String: Any] = ["op": op.rawValue, "d": d]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// A request id: a string, or a whole number (as some clients send).
    private static func id(_ value: Any?) -> (text: String, number: Bool)? {
        if let s = value as? String { return (s, false) }
        if let n = value as? NSNumber, let i = Int(exactly: n.doubleValue) { return (String(i), true) }
        return nil
    }

    /// Compares without stopping at the first difference (the time says nothing of the password).
    private static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var diff = x.count ^ y.count
        for i in 0..<min(x.count, y.count) { diff |= Int(x[i] ^ y[i]) }
        return diff == 0
    }
}
