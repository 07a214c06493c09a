// Minimal stub of android.os.SystemClock: only what the exported Kotlin adapter uses, with the
// Android SDK's signature. Test support for Scripts/export-stubs/check-kotlin.sh; never shipped
// in an export, never run.
package android.os;

public final class SystemClock {
    private SystemClock() {
        throw new RuntimeException("Stub!");
    }

    public static long uptimeMillis() {
        throw new RuntimeException("Stub!");
    }
}
