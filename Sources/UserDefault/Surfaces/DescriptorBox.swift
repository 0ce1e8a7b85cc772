/// A key's descriptor behind one reference, for the string-key wrappers: a wrapper is copied
/// wherever its owner is, and a copy then costs one retain rather than one per field.
@usableFromInline
final class DescriptorBox<Value> {
  @usableFromInline let descriptor: KeyDescriptor<Value>

  init(_ descriptor: KeyDescriptor<Value>) {
    self.descriptor = descriptor
  }
}

extension DescriptorBox: Sendable where Value: Sendable {}
