#pragma once
// The NVDLA convolution buffer (CBUF) of one convolution: a row of the configuration's banks per
// convolution operation, the first banks holding input lines (data), the last ones kernels
// (weights), the rest free, with the bands of output rows when the input does not fit at once.
#include <QString>
#include <QWidget>

#include <vector>

namespace tessera::views {

struct CbufRow {
    QString part;  // the operation's name ("conv1", "conv1-group0", "conv1_channels1")
    int dataBanks = 0, weightBanks = 0;
    int bands = 1, bandRows = 0;
};

struct CbufBanks {
    QString node;     // the model node they run
    QString config;   // "nv_full"
    int banks = 0;    // the configuration's bank count
    qint64 bankBytes = 0;
    std::vector<CbufRow> rows;
};

class CbufBanksView : public QWidget {
    Q_OBJECT

public:
    explicit CbufBanksView(QWidget* parent = nullptr);

    void showBanks(const CbufBanks& banks);
    void clear();  // hides the view: no convolution selected
    const CbufBanks& banks() const { return banks_; }
    // The line above the banks ("conv1 on nv_full: data 1, weights 2, free 13 of 16 banks of 32 KiB").
    QString summary() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    int rowsDrawn() const;

    CbufBanks banks_;
};

}  // namespace tessera::views
