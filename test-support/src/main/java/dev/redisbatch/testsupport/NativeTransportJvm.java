package dev.redisbatch.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * A test class that needs Netty's epoll native library on the classpath, which makes
 * Lettuce pick epoll for every client in the JVM: it runs in a JVM of its own, in the
 * {@code native-transport} execution, which selects the tag {@value #TAG} and adds the
 * library; every other run excludes it.
 *
 * @since 0.1.0
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Tag(NativeTransportJvm.TAG)
public @interface NativeTransportJvm {

	/**
	 * The JUnit tag.
	 */
	String TAG = "native-transport";

}
