// Minimal stub of android.view.MotionEvent: only what the exported Kotlin adapter uses, with
// the Android SDK's signatures and constant values. Test support for
// Scripts/export-stubs/check-kotlin.sh; never shipped in an export, never run.
package android.view;

public final class MotionEvent {
    public static final int ACTION_DOWN = 0;
    public static final int ACTION_UP = 1;
    public static final int ACTION_MOVE = 2;
    public static final int ACTION_CANCEL = 3;
    public static final int ACTION_POINTER_DOWN = 5;
    public static final int ACTION_POINTER_UP = 6;
    public static final int INVALID_POINTER_ID = -1;

    private MotionEvent() {
        throw new RuntimeException("Stub!");
    }

    public final int getActionMasked() {
        throw new RuntimeException("Stub!");
    }

    public final int getActionIndex() {
        throw new RuntimeException("Stub!");
    }

    public final int getPointerCount() {
        throw new RuntimeException("Stub!");
    }

    public final int getPointerId(int pointerIndex) {
        throw new RuntimeException("Stub!");
    }

    public final int findPointerIndex(int pointerId) {
        throw new RuntimeException("Stub!");
    }

    public final long getEventTime() {
        throw new RuntimeException("Stub!");
    }

    public final float getPressure(int pointerIndex) {
        throw new RuntimeException("Stub!");
    }

    public final float getX(int pointerIndex) {
        throw new RuntimeException("Stub!");
    }

    public final float getY(int pointerIndex) {
        throw new RuntimeException("Stub!");
    }

    public final int getHistorySize() {
        throw new RuntimeException("Stub!");
    }

    public final long getHistoricalEventTime(int pos) {
        throw new RuntimeException("Stub!");
    }

    public final float getHistoricalPressure(int pointerIndex, int pos) {
        throw new RuntimeException("Stub!");
    }

    public final float getHistoricalX(int pointerIndex, int pos) {
        throw new RuntimeException("Stub!");
    }

    public final float getHistoricalY(int pointerIndex, int pos) {
        throw new RuntimeException("Stub!");
    }
}
