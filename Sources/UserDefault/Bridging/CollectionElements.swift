/// The one loop over a collection's elements, for every coding of collections. A failure
/// names the element and fails the whole collection: a dropped element would be lost for
/// good by the next write.
enum CollectionElements {
  /// `transform` applied to each element in order.
  ///
  /// - Parameters:
  ///   - elements: The elements.
  ///   - transform: Encodes or decodes one element.
  /// - Returns: The transformed elements.
  /// - Throws: The first element's ``DefaultsError``, prefixed with its index.
  @inline(__always)
  static func map<Elements: Collection, Result>(
    _ elements: Elements, _ transform: (Elements.Element) throws(DefaultsError) -> Result
  ) throws(DefaultsError) -> [Result] {
    var result: [Result] = []
    result.reserveCapacity(elements.count)
    for (index, element) in elements.enumerated() {
      do throws(DefaultsError) { result.append(try transform(element)) } catch {
        throw DefaultsError(error.kind, "element \(index): \(error.message)")
      }
    }
    return result
  }

  /// `transform` applied to each value of a dictionary with string keys.
  ///
  /// - Parameters:
  ///   - dictionary: The dictionary.
  ///   - transform: Encodes or decodes one value.
  /// - Returns: The dictionary of transformed values, under the same keys.
  /// - Throws: The first failing value's ``DefaultsError``, prefixed with its key.
  @inline(__always)
  static func mapValues<Value, Result>(
    _ dictionary: [String: Value], _ transform: (Value) throws(DefaultsError) -> Result
  ) throws(DefaultsError) -> [String: Result] {
    var result: [String: Result] = [:]
    result.reserveCapacity(dictionary.count)
    for (key, value) in dictionary {
      do throws(DefaultsError) { result[key] = try transform(value) } catch {
        throw DefaultsError(error.kind, "value for \"\(key)\": \(error.message)")
      }
    }
    return result
  }
}
