#if canImport(Glibc)
import Glibc
#endif

/// Files duo-capture reads (scripts, timelines, profiles, takes to inspect) must be regular files:
/// a FIFO would block the run forever and a device such as /dev/zero never ends.
///
/// Thread: any; one stat call.
public enum InputFile {
    /// Throws an input error naming `what` unless `path` is a regular file (symbolic links are followed);
    /// a link loop, a dangling link and a folder without permission are each said as what they are.
    public static func requireRegular(_ path: String, _ what: Said, hint: Said) throws(DuoError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            switch errno {
            case ELOOP:
                throw .input(.text("%s %s is a symbolic link loop (its links lead back to themselves); %s", what, path, hint))
            case EACCES:
                throw .input(.text("%s %s cannot be reached: permission denied on a folder on its way; %s", what, path, hint))
            case ENOTDIR:
                throw .input(.text("%s %s does not exist (a part of its path is a file, not a folder); %s", what, path, hint))
            case ENAMETOOLONG:
                throw .input(.text("%s %s is too long a name; %s", what, path, hint))
            default:
                // A link whose target is missing: say so, rather than that the link itself is missing.
                var link = stat()
                if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
                    throw .input(.text("%s %s is a symbolic link to a file that does not exist; %s", what, path, hint))
                }
                throw .input(.text("%s %s does not exist; %s", what, path, hint))
            }
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw .input(.text("%s %s is a folder; %s", what, path, hint))
        default: throw .input(.text("%s %s is not a regular file (a device, FIFO or socket); %s", what, path, hint))
        }
    }
}
