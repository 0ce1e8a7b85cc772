import Foundation

/// `[Any]`, `[String: Any]`, or an optional of either: a container of property-list values
/// whose element types the compiler cannot know.
///
/// It exists for the compiler's check of storable types: `UserDefaultsWrapper<[Any]?>`
/// compiles, while a type the library cannot store does not. What each element is, is
/// checked when it is written: a value that is not a property list is refused and
/// reported, and nothing is written. The conformances below are the only ones; do not
/// conform your own types.
///
/// `@UserDefaultsWrapper(key: "Tags") var tags: [Any]?`
@_documentation(visibility: internal)
public protocol _PropertyListContainer {}

extension Array: _PropertyListContainer where Element == Any {}
extension Dictionary: _PropertyListContainer where Key == String, Value == Any {}
extension Optional: _PropertyListContainer where Wrapped: _PropertyListContainer {}
