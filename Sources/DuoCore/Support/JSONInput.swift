import Foundation

/// Why a JSON file someone wrote by hand (a camera profile, a display profile) does not decode, with the
/// place named as a path (`formats[2].width`; empty at the top level). Each reader words its own one-line
/// error from it, pointing at its own example file.
///
/// Thread: value type, Sendable.
public enum JSONProblem: Sendable, Equatable {
    /// A key is missing: its name, and the path to it (the key included).
    case missing(key: String, path: String)
    case wrongType(path: String)
    /// A value is null where one is needed.
    case null(path: String)
    /// A value is not one of those allowed (a word an enum does not know).
    case invalid(path: String)
    /// Not JSON at all.
    case notJSON

    /// `type` decoded from `data`, or the error `describe` words for the problem.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data,
                                            describe: (JSONProblem) -> DuoError) throws(DuoError) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw describe(.missing(key: key.stringValue, path: path(context.codingPath + [key])))
        } catch let DecodingError.typeMismatch(_, context) {
            throw describe(.wrongType(path: path(context.codingPath)))
        } catch let DecodingError.valueNotFound(_, context) {
            throw describe(.null(path: path(context.codingPath)))
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw describe(.invalid(path: path(context.codingPath)))
        } catch {
            throw describe(.notJSON)
        }
    }

    /// `formats[2].width` for the keys `formats`, 2, `width`.
    static func path(_ keys: [CodingKey]) -> String {
        let joined = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return String(joined.drop { $0 == "." })
    }
}
