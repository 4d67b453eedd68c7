// Sequential probability ratio test (SPRT) for the early rejection of bad RANSAC hypotheses:
// O. Chum, J. Matas, "Optimal Randomized RANSAC", PAMI 30(8), 2008 (after A. Wald, 1947).
// A hypothesis is verified datum by datum; the likelihood ratio
//   lambda_j = prod (delta / epsilon)           for data consistent with it,
//              prod ((1 - delta) / (1 - epsilon)) for inconsistent data,
// rejects it as soon as lambda_j > A. epsilon is the inlier ratio of a good model (taken from
// the best model so far), delta the consistency probability for a bad one (estimated from
// rejected hypotheses), and A minimizes the expected running time (paper, eq. 2 and 4).
// A good model is rejected with probability at most 1 / A, which the adaptive iteration count
// takes into account. Plain value type, used by Ransac (ransac.h); deterministic.
#pragma once

namespace proj {

class SprtTest {
 public:
  // model_cost: time of one minimal Fit in units of one SquaredError call (t_M in the paper).
  SprtTest(double initial_delta, double model_cost);

  // The test is only meaningful once a good-model estimate exceeds delta.
  bool active() const { return active_; }
  double consistent_factor() const { return consistent_factor_; }      // delta / epsilon
  double inconsistent_factor() const { return inconsistent_factor_; }  // (1-delta)/(1-epsilon)
  double threshold() const { return threshold_; }                      // A
  // Probability that a good model survives the test: 1 - 1/A (1 when inactive).
  double PassProbability() const { return active_ ? 1.0 - 1.0 / threshold_ : 1.0; }

  // The best model so far was verified on all data with this inlier ratio.
  void SetEpsilon(double epsilon);
  // Average number of models per minimal sample (m_S), to weigh the model cost.
  void SetModelsPerSample(double models_per_sample);
  // A hypothesis was rejected after `tested` data, `consistent` of them within the threshold.
  void RecordRejection(int consistent, int tested);

 private:
  void Update();

  double model_cost_;
  double models_per_sample_ = 1.0;
  double epsilon_ = 0.0;
  double delta_;
  double delta_consistent_;  // pseudo-counts for the running delta estimate
  double delta_tested_;
  bool active_ = false;
  double consistent_factor_ = 1.0;
  double inconsistent_factor_ = 1.0;
  double threshold_ = 1.0;
  // delta when threshold_ was last solved for (0: not yet): see Update().
  double threshold_delta_ = 0.0;
};

}  // namespace proj
