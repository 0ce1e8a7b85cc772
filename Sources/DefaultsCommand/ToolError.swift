/// A failure of a `defaults` verb: the message printed on standard error, exit status 1.
public struct ToolError: Error, Equatable {
  public let message: String

  public init(_ message: String) {
    self.message = message
  }
}
