package dev.redisbatch.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test class that runs under Netty's leak detector at its paranoid level, in a JVM of
 * its own: the {@code leak-detection} executions select the tag {@value #TAG} and set
 * {@code -Dio.netty.leakDetection.level=paranoid}, and the ordinary runs exclude it.
 * {@link NettyLeakDetection} then fails the class when one of its tests left a Netty
 * buffer unreleased.
 *
 * @since 0.1.0
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Tag(LeakDetection.TAG)
@ExtendWith(NettyLeakDetection.class)
public @interface LeakDetection {

	/**
	 * The JUnit tag.
	 */
	String TAG = "leak-detection";

}
