/// A failure of a `defaults` verb: the message printed on standard error, exit status 1.
package struct ToolError: Error, Equatable {
  package let message: String

  package init(_ message: String) {
    self.message = message
  }
}
