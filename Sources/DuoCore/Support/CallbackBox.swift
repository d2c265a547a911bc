/// The one way a Swift value rides through a C callback's user-data pointer: box it, hand C a retained
/// pointer, read it back in the callback, and let the destroy-notify release it.
///
///     let data = CallbackBox(handler).retainedPointer()          // +1, owned by the C side
///     c_api_add(…, { data in CallbackBox<Handler>.value(data!)(…) }, data, { CallbackBoxes.release($0) })
///
/// Thread: any; the box is immutable and its value Sendable, so C may call back on any thread.
public final class CallbackBox<Value: Sendable>: Sendable {
    public let value: Value
    public init(_ value: Value) { self.value = value }

    /// A +1 reference for C to hold; `CallbackBoxes.release` (the destroy-notify) gives it back.
    public func retainedPointer() -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(self).toOpaque()
    }

    /// The value behind a pointer made by `retainedPointer`, without touching the reference count. The
    /// caller names the same `Value` it boxed (each C callback sits next to the line that boxed it).
    public static func value(_ pointer: UnsafeRawPointer) -> Value {
        Unmanaged<CallbackBox<Value>>.fromOpaque(pointer).takeUnretainedValue().value
    }
}

/// Thread: any (the destroy-notify runs wherever C drops its last use).
public enum CallbackBoxes {
    /// The destroy-notify for every `CallbackBox.retainedPointer()`: releases C's reference.
    public static func release(_ pointer: UnsafeMutableRawPointer?) {
        // Any box: releasing needs no more than its being a Swift object.
        if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
    }
}
