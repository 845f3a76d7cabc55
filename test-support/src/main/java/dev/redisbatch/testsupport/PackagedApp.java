package dev.redisbatch.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * A test class that starts the application jar the build packaged: it runs only in the
 * sample app's {@code aot-processed-app} execution, after the jar is built, which selects
 * the tag {@value #TAG}; the unit-test run excludes it.
 *
 * @since 0.1.0
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Tag(PackagedApp.TAG)
public @interface PackagedApp {

	/**
	 * The JUnit tag.
	 */
	String TAG = "packaged-app";

}
