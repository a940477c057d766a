import CGSL

/// GSL's default error handler aborts the whole process, e.g. when `gsl_cdf_beta_Pinv` fails
/// to converge. Every entry point of this module that can reach that handler calls
/// `returnGSLErrors()` first: once per process it turns the handler off, so failures come back
/// as NaN or status codes, which the callers check. (Turning it off only when the first
/// `RandomStream` was made aborted any process that computed an interval before drawing.)
@usableFromInline func returnGSLErrors() { _ = gslErrorsReturned }

private let gslErrorsReturned: Bool = {
    ensim_gsl_disable_abort()
    return true
}()
