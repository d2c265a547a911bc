/// The one way a Swift value rides through a C callback's user-data pointer: box it, hand C a retained
/// pointer, read it back in the callback, and let the destroy-notify release it.
///
///     let data = CallbackBox(handler).retainedPointer()          // +1, owned by the C side
///     c_api_add(…, { data in CallbackBox<Handler>.value(data!)(…) }, data, { CallbackBoxes.release($0) })
///
/// Thread: the box is immutable; any thread may read its value.
// Unchecked: the base of CallbackBox, passed through C as a context pointer.
public class AnyCallbackBox: @unchecked Sendable {}

// Unchecked: immutable; its value is a closure C calls back on its own thread.
public final class CallbackBox<Value>: AnyCallbackBox, @unchecked Sendable {
    public let value: Value
    public init(_ value: Value) { self.value = value }

    /// A +1 reference for C to hold; `CallbackBoxes.release` (the destroy-notify) gives it back.
    public func retainedPointer() -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(self as AnyCallbackBox).toOpaque()
    }

    /// The value behind a pointer made by `retainedPointer`, without touching the reference count.
    public static func value(_ pointer: UnsafeRawPointer) -> Value {
        (Unmanaged<AnyCallbackBox>.fromOpaque(pointer).takeUnretainedValue() as! CallbackBox<Value>).value
    }
}

/// Thread: any (the destroy-notify runs wherever C drops its last use).
public enum CallbackBoxes {
    /// The destroy-notify for every `CallbackBox.retainedPointer()`: releases C's reference.
    public static func release(_ pointer: UnsafeMutableRawPointer?) {
        if let pointer { Unmanaged<AnyCallbackBox>.fromOpaque(pointer).release() }
    }
}
