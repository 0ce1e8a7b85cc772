/// An identity for a way of reading a stored object (a value bridge): the decoded-value
/// cache keeps one entry per name and token, so two bridges reading one name never share
/// a decoded value. Compared by identity; it holds nothing.
@usableFromInline
final class BridgeToken: Sendable {}
