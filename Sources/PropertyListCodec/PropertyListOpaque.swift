/// A value of a binary property list that no Swift type stands for: a null, or a UID (the
/// object reference `NSKeyedArchiver` writes). Found in files brought from a Mac; the
/// library keeps it as it found it, so a binary file that holds one is rewritten with it.
///
/// A typed read of it is the wrong type (reported); `object(forKey:)` hands it out as
/// this type; XML cannot hold it, so an XML file that holds one is written as binary
/// (reported, see ``PropertyListFileWriter``). It cannot be written through the library's
/// API.
package struct PropertyListOpaque: Hashable, Sendable, CustomStringConvertible {
  enum Value: Hashable, Sendable {
    case null
    /// The reference's number, as its bytes give it.
    case uid(UInt64)
  }

  let value: Value

  /// `null`, or `UID(7)`: how the `defaults` tool prints it.
  package var description: String {
    switch value {
    case .null: "null"
    case .uid(let number): "UID(\(number))"
    }
  }
}
