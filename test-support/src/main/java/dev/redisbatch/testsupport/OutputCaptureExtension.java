package dev.redisbatch.testsupport;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit extension that captures {@code System.out} and {@code System.err} for each test
 * (the console log appender writes there) and hands the capture to a
 * {@link CapturedOutput} parameter. The streams still reach the console.
 *
 * @since 0.1.0
 */
public final class OutputCaptureExtension implements BeforeEachCallback, AfterEachCallback, ParameterResolver {

	private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace
		.create(OutputCaptureExtension.class);

	@Override
	public void beforeEach(ExtensionContext context) {
		context.getStore(NAMESPACE).put(CapturedOutput.class, new CapturedOutput());
	}

	@Override
	public void afterEach(ExtensionContext context) {
		CapturedOutput output = context.getStore(NAMESPACE).remove(CapturedOutput.class, CapturedOutput.class);
		if (output != null) {
			output.restore();
		}
	}

	@Override
	public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return parameterContext.getParameter().getType() == CapturedOutput.class;
	}

	@Override
	public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return extensionContext.getStore(NAMESPACE).get(CapturedOutput.class, CapturedOutput.class);
	}

}
