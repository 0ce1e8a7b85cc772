// `defaults`: read and change preferences on Linux, with the verbs of macOS defaults(1).
// Run `defaults help`. Exit status: 0 on success, 1 on any error (as on macOS).
import DefaultsCommand
import Foundation

func printOut(_ text: String) {
  FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

func printError(_ text: String) {
  FileHandle.standardError.write(Data((text + "\n").utf8))
}

do {
  let command = try ToolArguments.parse(Array(CommandLine.arguments.dropFirst()))
  let tool = try DefaultsTool(output: printOut)
  try tool.run(command)
  exit(0)
} catch let error as ToolArgumentError {
  switch error {
  case .usage(let verb, let message):
    printError("defaults: \(message)\n" + DefaultsTool.usage(verb: verb))
  case .invalidValue(let message):
    printError("defaults: \(message)")
  }
  exit(1)
} catch let error as ToolError {
  printError(error.message)
  exit(1)
}
