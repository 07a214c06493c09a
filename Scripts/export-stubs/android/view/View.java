// Minimal stub of android.view.View: only what the exported Kotlin adapter uses, with the
// Android SDK's signatures, so `kotlinc` type-checks the adapter as against android.jar
// (Java getters read as Kotlin properties, float and long as in the SDK). Test support for
// Scripts/export-stubs/check-kotlin.sh; never shipped in an export, never run.
package android.view;

import android.content.res.Resources;

public class View {
    /** Interface definition for a callback invoked when a touch event is dispatched to a view. */
    public interface OnTouchListener {
        boolean onTouch(View v, MotionEvent event);
    }

    private View() {
        throw new RuntimeException("Stub!");
    }

    public Resources getResources() {
        throw new RuntimeException("Stub!");
    }

    public boolean postDelayed(Runnable action, long delayMillis) {
        throw new RuntimeException("Stub!");
    }

    public boolean removeCallbacks(Runnable action) {
        throw new RuntimeException("Stub!");
    }

    public void setOnTouchListener(OnTouchListener l) {
        throw new RuntimeException("Stub!");
    }
}
