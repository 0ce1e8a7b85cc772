import Foundation

/// An array, set, string-keyed dictionary or optional whose elements are `RawRepresentable`
/// with a ``UserDefaultable`` raw value: a container the library stores element by element,
/// each as its raw value.
///
/// It exists for the compiler's check of storable types: `Key<[Theme]>` compiles for an enum
/// `Theme: String` that declares nothing else. The conformances below are the only ones;
/// the protocol has no requirements and nothing reads it at run time (`ValueBridge` chooses
/// how to store each type). Do not conform your own types.
///
/// `static let pinned = Key<[Theme]>("pinned", default: [])`
@_documentation(visibility: internal)
public protocol _RawValueContainer {}

extension Array: _RawValueContainer
where Element: RawRepresentable, Element.RawValue: UserDefaultable {}
extension Set: _RawValueContainer
where Element: RawRepresentable, Element.RawValue: UserDefaultable {}
extension Dictionary: _RawValueContainer
where Key == String, Value: RawRepresentable, Value.RawValue: UserDefaultable {}
extension Optional: _RawValueContainer
where Wrapped: RawRepresentable, Wrapped.RawValue: UserDefaultable {}
