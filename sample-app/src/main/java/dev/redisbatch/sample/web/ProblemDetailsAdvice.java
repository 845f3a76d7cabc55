package dev.redisbatch.sample.web;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import dev.redisbatch.sample.SampleProperties;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.TypeMismatchException;
import org.springframework.context.MessageSourceResolvable;
import org.springframework.core.MethodParameter;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.validation.method.ParameterValidationResult;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Answers errors with RFC 9457 problem details ({@code application/problem+json}): 400
 * for a bad count or parameter, naming the parameter and the rule (a whole number too
 * large for an {@code int} is told the parameter's bound); 429 when a comparison is
 * already running; 503 when Redis cannot be reached.
 *
 * @since 0.1.0
 */
@RestControllerAdvice
public class ProblemDetailsAdvice extends ResponseEntityExceptionHandler {

	private static final Logger logger = LoggerFactory.getLogger(ProblemDetailsAdvice.class);

	private static final Pattern WHOLE_NUMBER = Pattern.compile("[+-]?[0-9]+");

	private final SampleProperties properties;

	/**
	 * Create the advice.
	 * @param properties the sample's properties, for the largest count
	 */
	public ProblemDetailsAdvice(SampleProperties properties) {
		this.properties = properties;
	}

	@Override
	protected @Nullable ResponseEntity<Object> handleHandlerMethodValidationException(
			HandlerMethodValidationException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		List<String> errors = new ArrayList<>();
		for (ParameterValidationResult result : ex.getParameterValidationResults()) {
			String name = result.getMethodParameter().getParameterName();
			for (MessageSourceResolvable error : result.getResolvableErrors()) {
				errors.add(name + " " + error.getDefaultMessage());
			}
		}
		ProblemDetail body = ProblemDetail.forStatusAndDetail(status, String.join("; ", errors));
		body.setTitle("Invalid request");
		body.setProperty("errors", errors);
		return handleExceptionInternal(ex, body, headers, status, request);
	}

	@Override
	protected @Nullable ResponseEntity<Object> handleTypeMismatch(TypeMismatchException ex, HttpHeaders headers,
			HttpStatusCode status, WebRequest request) {
		MethodArgumentTypeMismatchException mismatch = (ex instanceof MethodArgumentTypeMismatchException argument)
				? argument : null;
		String name = (mismatch != null) ? mismatch.getName() : ex.getPropertyName();
		MethodParameter parameter = (mismatch != null) ? mismatch.getParameter() : null;
		String error = name + " " + rule(ex.getRequiredType(), ex.getValue(), parameter);
		ProblemDetail body = ProblemDetail.forStatusAndDetail(status, error);
		body.setTitle("Invalid request");
		body.setProperty("errors", List.of(error));
		return handleExceptionInternal(ex, body, headers, status, request);
	}

	/**
	 * The rule a value broke that is not of its parameter's type. A whole number too
	 * large for an {@code int} breaks the parameter's bound, so that is the rule named.
	 */
	private String rule(@Nullable Class<?> type, @Nullable Object value, @Nullable MethodParameter parameter) {
		if (type != int.class && type != Integer.class) {
			return "must be a " + ((type != null) ? type.getSimpleName() : "valid value");
		}
		if (!(value instanceof String text) || !WHOLE_NUMBER.matcher(text).matches()) {
			return "must be a whole number";
		}
		String bound = text.startsWith("-") ? lowerBound(parameter) : upperBound(parameter);
		return bound + ", got " + Echo.of(text);
	}

	private String upperBound(@Nullable MethodParameter parameter) {
		MaxCount maxCount = (parameter != null) ? parameter.getParameterAnnotation(MaxCount.class) : null;
		if (maxCount != null) {
			return maxCount.message().replace("{max}", String.valueOf(this.properties.getMaxCount()));
		}
		Max max = (parameter != null) ? parameter.getParameterAnnotation(Max.class) : null;
		return "must be less than or equal to " + ((max != null) ? max.value() : Integer.MAX_VALUE);
	}

	private static String lowerBound(@Nullable MethodParameter parameter) {
		Min min = (parameter != null) ? parameter.getParameterAnnotation(Min.class) : null;
		return "must be greater than or equal to " + ((min != null) ? min.value() : Integer.MIN_VALUE);
	}

	/**
	 * Redis could not do the work.
	 * @param ex the failure
	 * @return a 503 problem detail
	 */
	@ExceptionHandler(DataAccessException.class)
	ProblemDetail redisFailed(DataAccessException ex) {
		logger.warn("Redis failed: {}", ex.getClass().getSimpleName(), ex);
		ProblemDetail body = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE,
				"Redis did not do the work: " + ex.getClass().getSimpleName());
		body.setTitle("Redis unavailable");
		return body;
	}

}
