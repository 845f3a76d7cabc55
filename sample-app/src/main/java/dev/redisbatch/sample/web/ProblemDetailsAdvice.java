package dev.redisbatch.sample.web;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.TypeMismatchException;
import org.springframework.context.MessageSourceResolvable;
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
 * for a bad count or parameter, naming the parameter and the rule; 429 when a comparison
 * is already running; 503 when Redis cannot be reached.
 *
 * @since 0.1.0
 */
@RestControllerAdvice
public class ProblemDetailsAdvice extends ResponseEntityExceptionHandler {

	private static final Logger logger = LoggerFactory.getLogger(ProblemDetailsAdvice.class);

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
		String name = (ex instanceof MethodArgumentTypeMismatchException mismatch) ? mismatch.getName()
				: ex.getPropertyName();
		Class<?> type = ex.getRequiredType();
		String expected = (type == int.class || type == Integer.class) ? "a whole number"
				: "a " + ((type != null) ? type.getSimpleName() : "valid value");
		ProblemDetail body = ProblemDetail.forStatusAndDetail(status, name + " must be " + expected);
		body.setTitle("Invalid request");
		body.setProperty("errors", List.of(name + " must be " + expected));
		return handleExceptionInternal(ex, body, headers, status, request);
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
